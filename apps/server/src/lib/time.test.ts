import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { localDate } from './time';

const client = new PGlite();
const db = drizzle({ client });
afterAll(() => client.close());

async function dateIn(zone: string, at: Date): Promise<string> {
  const result = await db.execute<{ date: string }>(sql`select ${localDate(sql`${zone}::text`, at)}::text as date`);
  return result.rows[0]!.date;
}

describe('localDate', () => {
  it('answers different calendar dates on either side of the date line at the same instant', async () => {
    const instant = new Date('2026-03-10T20:30:00Z');
    expect(await dateIn('Pacific/Auckland', instant)).toBe('2026-03-11');
    expect(await dateIn('America/Los_Angeles', instant)).toBe('2026-03-10');
    expect(await dateIn('UTC', instant)).toBe('2026-03-10');
  });

  it('follows the zone just after and before local midnight', async () => {
    expect(await dateIn('Pacific/Auckland', new Date('2026-03-10T10:59:59Z'))).toBe('2026-03-10');
    expect(await dateIn('Pacific/Auckland', new Date('2026-03-10T11:00:00Z'))).toBe('2026-03-11');
    expect(await dateIn('America/Los_Angeles', new Date('2026-03-11T06:59:59Z'))).toBe('2026-03-10');
    expect(await dateIn('America/Los_Angeles', new Date('2026-03-11T07:00:00Z'))).toBe('2026-03-11');
  });

  it('is today without an instant', async () => {
    const result = await db.execute<{ date: string }>(sql`select ${localDate(sql`'UTC'::text`)}::text as date`);
    const now = new Date().toISOString().slice(0, 10);
    expect([now, new Date(Date.now() - 60_000).toISOString().slice(0, 10)]).toContain(result.rows[0]!.date);
  });
});
