import { sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { createTestDatabase, isPostgresReachable, type TestDatabase } from '../../test/build-app';
import { startEmbeddedMaintenance } from './embedded-maintenance';

/** Someone using the database every 100 ms until stopped, as a crew's requests would. */
function keepBusy(query: () => Promise<unknown>) {
  let busy = true;
  const done = (async () => {
    while (busy) {
      await query();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return async () => {
    busy = false;
    await done;
  };
}

/**
 * A table of `rows` rows, analyzed, of which `deleted` are then deleted: past VACUUM's threshold.
 * One message of statements, one transaction: no maintenance round sees the table half made. Its
 * counts reach pg_stat_user_tables on commit (PostgreSQL otherwise holds them up to 10 s).
 */
async function bigTableWithDeadRows(run: (query: SQL) => Promise<unknown>, rows: number, deleted: number) {
  await run(
    sql.raw(`create table yard_log (id int primary key, note text) with (autovacuum_enabled = off);
      insert into yard_log select n, 'Delivery ' || n from generate_series(1, ${rows}) as n;
      analyze yard_log;
      delete from yard_log where id <= ${deleted};
      select pg_stat_force_next_flush()`),
  );
}

/** Rounds four times a second instead of every 2 s: the tests wait for rounds, not for time. */
const MAINTENANCE_INTERVAL_MS = 250;

describe('the embedded database, which has no autovacuum', () => {
  // Decision record 015, "Embedded autovacuum": a generic plan made while a table was empty kept
  // scanning the whole table for the session's life, so every insert cost more than the last.
  it('plans a statement again once its table has grown', { timeout: 60_000 }, async () => {
    const database = await createTestDatabase('pglite', undefined, { maintenanceIntervalMs: MAINTENANCE_INTERVAL_MS });
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

  it('vacuums a big table only once no one has used the database for a moment', { timeout: 90_000 }, async () => {
    const database: TestDatabase = await createTestDatabase('pglite', undefined, { maintenanceIntervalMs: MAINTENANCE_INTERVAL_MS });
    try {
      const run = (query: SQL) => database.db.execute(query);
      const lastVacuum = async () => ((await run(sql`select last_vacuum from pg_stat_user_tables where relname = 'yard_log'`)) as unknown as { rows: { last_vacuum: Date | null }[] }).rows[0]?.last_vacuum ?? null;
      const stopBusy = keepBusy(() => run(sql`select 1`));
      await bigTableWithDeadRows(run, 25_000, 10_000);
      const lookedBefore = database.stats().maintenance!.looked;
      // Three rounds look at the table and pass it by while people keep using it (a fourth: the
      // first may have begun before the table was there).
      await vi.waitFor(() => expect(database.stats().maintenance!.looked).toBeGreaterThanOrEqual(lookedBefore + 4), { timeout: 30_000, interval: 50 });
      expect(await lastVacuum()).toBeNull();
      // The small tables' first ANALYZE waits for no quiet moment: done in those rounds, so the next statement is the big table's.
      const statementsBefore = database.stats().maintenance!.statements;

      await stopBusy();
      // Watched in memory: a query to look would itself be someone using the database.
      await vi.waitFor(() => expect(database.stats().maintenance!.statements).toBeGreaterThan(statementsBefore), { timeout: 30_000, interval: 100 });
      await vi.waitFor(async () => expect(await lastVacuum()).not.toBeNull(), { timeout: 30_000, interval: 2_500 });
    } finally {
      await database.drop();
    }
  });

  it('vacuums a big table all the same once it has waited its longest', { timeout: 60_000 }, async ({ skip }) => {
    if (!(await isPostgresReachable())) skip('PostgreSQL unreachable');
    // The same rules on PostgreSQL's statistics, its own autovacuum off for the table: short limits.
    const database = await createTestDatabase('postgres');
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    const statements: string[] = [];
    try {
      const run = (query: SQL) => database.db.execute(query);
      await bigTableWithDeadRows(run, 3_000, 2_000);
      const stopBusy = keepBusy(() => pool.query('select 1'));
      const maintenance = startEmbeddedMaintenance(pool, { intervalMs: 100, bigTableRows: 1_000, quietMs: 1_000, maxPostponeMs: 2_000, onRound: (round) => statements.push(...round.statements) });
      try {
        await vi.waitFor(() => expect(statements).toContain('vacuum (analyze) public.yard_log'), { timeout: 30_000, interval: 100 });
      } finally {
        await maintenance.stop();
        await stopBusy();
      }
    } finally {
      await pool.end();
      await database.drop();
    }
  });
});
