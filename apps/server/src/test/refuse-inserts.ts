import { sql } from 'drizzle-orm';
import type { Db } from '../platform';

/**
 * While `run` runs, the database refuses (raising "refused for the test") to insert into `table` a
 * row whose `column` is `value`: a failure in the middle of a write, to show nothing half-written stays.
 * With `endConnection` (PostgreSQL only) it ends the connection instead, as a restart or a failover does;
 * with `sqlstate` the refusal carries that code (40P01: as PostgreSQL ends the loser of a deadlock).
 */
export async function whileRefusingInserts<T>(db: Db, target: { table: string; column: string; value: string; endConnection?: boolean; sqlstate?: string }, run: () => Promise<T>): Promise<T> {
  const name = `refuse_${target.table}`;
  const value = target.value.replaceAll("'", "''");
  const refuse = target.endConnection
    ? 'perform pg_terminate_backend(pg_backend_pid())'
    : `raise exception using message = 'refused for the test', errcode = '${target.sqlstate ?? 'P0001'}'`;
  await db.execute(sql.raw(`
    create function ${name}() returns trigger language plpgsql as $$
    begin
      if new.${target.column} = '${value}' then ${refuse}; end if;
      return new;
    end $$`));
  await db.execute(sql.raw(`create trigger ${name} before insert on ${target.table} for each row execute function ${name}()`));
  try {
    return await run();
  } finally {
    await db.execute(sql.raw(`drop trigger ${name} on ${target.table}`));
    await db.execute(sql.raw(`drop function ${name}()`));
  }
}
