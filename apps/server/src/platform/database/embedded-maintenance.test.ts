import { sql, type SQL } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '../../test/build-app';

describe('the embedded database, which has no autovacuum', () => {
  // Decision record 015, "Embedded autovacuum": a generic plan made while a table was empty kept
  // scanning the whole table for the session's life, so every insert cost more than the last.
  it('plans a statement again once its table has grown', { timeout: 60_000 }, async () => {
    const database = await createTestDatabase('pglite');
    try {
      const run = (query: SQL) => database.db.execute(query);
      // As the benchmark's fixture (or a restore) leaves it: statistics saying the table is empty.
      await run(sql`analyze subtasks`);
      await run(sql`prepare subtask_by_id(int) as select name from subtasks where id = $1`);
      const plan = async () => {
        const { rows } = (await run(sql`explain (costs off) execute subtask_by_id(1)`)) as unknown as { rows: { 'QUERY PLAN': string }[] };
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      };
      expect(await plan()).toContain('Seq Scan on subtasks');

      await run(sql`
        with company as (insert into companies (name, password_hash) values ('Growth Yard', 'x') returning id),
        project as (insert into projects (company_id, name, start_date, end_date) select id, 'Tower', '2026-01-01', '2026-12-31' from company returning id, company_id),
        major as (insert into major_tasks (company_id, project_id, name) select company_id, id, 'Frame' from project returning id, company_id)
        insert into subtasks (company_id, major_task_id, name) select major.company_id, major.id, 'Bolt ' || n from major, generate_series(1, 5000) as n`);

      await vi.waitFor(async () => expect(await plan()).toContain('Index Scan using subtasks_pkey on subtasks'), { timeout: 30_000, interval: 250 });
    } finally {
      await database.drop();
    }
  });
});
