import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, isPostgresReachable } from '../test/build-app';
import { isoTimestamp, jsonArray, jsonObject, personJson } from './json-sql';

// Cut, not rounded, at the millisecond; on both sides of a daylight-saving change; before 2000.
const TIMESTAMPS = ['2026-11-23 11:34:48.752999+00', '2026-03-29 01:59:59.999999+01', '2026-03-29 03:00:00.0005+02', '1999-12-31 23:59:59.000001-05', '2026-01-01 00:00:00+00'];

describe.each(['pglite', 'postgres'] as const)('JSON built by PostgreSQL [%s]', (kind) => {
  it('writes timestamps exactly as toISOString of the value read the usual way, whatever the session time zone', async ({ skip }) => {
    if (kind === 'postgres' && !(await isPostgresReachable())) skip();
    const database = await createTestDatabase(kind);
    try {
      const rows = await database.db.transaction(async (tx) => {
        await tx.execute(sql`set local time zone 'Pacific/Auckland'`);
        return tx
          .select({ text: sql<string>`t::text`, iso: isoTimestamp(sql`t`) })
          .from(sql`unnest(${`{${TIMESTAMPS.map((t) => `"${t}"`).join(',')}}`}::timestamptz[]) as t`);
      });

      expect(rows).toHaveLength(TIMESTAMPS.length);
      for (const row of rows) expect(row.iso).toBe(new Date(row.text).toISOString());
      expect(rows[0]!.iso).toBe('2026-11-23T11:34:48.752Z');
    } finally {
      await database.drop();
    }
  });

  it('builds objects, people and ordered arrays, [] when there is nothing and null for no one', async ({ skip }) => {
    if (kind === 'postgres' && !(await isPostgresReachable())) skip();
    const database = await createTestDatabase(kind);
    try {
      const [row] = await database.db.execute<{ people: unknown; none: unknown }>(sql`
        select ${jsonArray(jsonObject({ n: sql`n`, person: personJson(sql`case when n > 1 then n end`, sql`'p' || n || '@site.test'`, sql`case when n = 3 then 'Pat Three' end`) }), [sql`n desc`])} as people,
               (select ${jsonArray(jsonObject({ n: sql`n` }), [sql`n`])} from generate_series(1, 0) as n) as none
        from generate_series(1, 3) as n`).then((result) => (result as unknown as { rows: { people: unknown; none: unknown }[] }).rows);

      expect(row).toEqual({
        people: [
          { n: 3, person: { id: 3, email: 'p3@site.test', full_name: 'Pat Three' } },
          { n: 2, person: { id: 2, email: 'p2@site.test', full_name: null } },
          { n: 1, person: null },
        ],
        none: [],
      });
    } finally {
      await database.drop();
    }
  });

  it('refuses a field name that is not a plain identifier', () => {
    expect(() => jsonObject({ "x', (select 1), 'y": sql`1` })).toThrow('Not a JSON field name');
  });
});
