import { sql } from 'drizzle-orm';
import { expect, vi } from 'vitest';
import type { Db, Tx } from '../platform';

/** How many of this database's sessions wait for a lock now. */
export async function waitingForLocks(db: Db): Promise<number> {
  const result = await db.execute(sql`select count(*)::int as count from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
  return (result as unknown as { rows: { count: number }[] }).rows[0]!.count;
}

/**
 * Runs `change` in a transaction of its own and keeps it uncommitted until `release` is called;
 * `holder` settles once it has committed. PostgreSQL only: the embedded database runs one
 * transaction at a time.
 */
export async function holdUncommitted(db: Db, change: (tx: Tx) => Promise<unknown>): Promise<{ release: () => void; holder: Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const holder = db.transaction(async (tx) => {
    await change(tx);
    held();
    await released;
  });
  await holding;
  return { release, holder };
}

/**
 * Runs `change` in a transaction of its own and keeps it uncommitted while `request` starts; commits
 * once the request waits for a lock (or has answered already), and answers the request's answer.
 */
export async function whileUncommitted<T>(db: Db, change: (tx: Tx) => Promise<unknown>, request: () => Promise<T>): Promise<T> {
  const { release, holder } = await holdUncommitted(db, change);
  let answered = false;
  const answer = request().finally(() => (answered = true));
  await vi.waitFor(async () => expect(answered || (await waitingForLocks(db)) > 0).toBe(true), { timeout: 10_000, interval: 20 });
  release();
  await holder;
  return answer;
}
