import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { describeEachDatabase } from './test/build-app';

/**
 * Deleting a row makes the database find every row that names it (to cascade, set null or refuse).
 * Without an index on the naming column that is a read of the whole table per deleted row: deleting
 * a major task with 100 subtasks read every notification 100 times and ran past the request's
 * 30 s. Companies are never deleted and users only marked deleted, so their keys are left out.
 */
describeEachDatabase('foreign keys a deletion follows', (ctx) => {
  it('each have an index that begins with the naming column', async () => {
    const result = await ctx.database.db.execute(sql`
      select c.conrelid::regclass || '.' || a.attname || ' → ' || c.confrelid::regclass as key
      from pg_constraint c
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      where c.contype = 'f' and cardinality(c.conkey) = 1
        and c.confrelid not in ('companies'::regclass, 'users'::regclass)
        and not exists (select 1 from pg_index i where i.indrelid = c.conrelid and i.indkey[0] = c.conkey[1])
      order by 1`);
    expect((result as unknown as { rows: { key: string }[] }).rows.map((row) => row.key)).toEqual([]);
  });
});
