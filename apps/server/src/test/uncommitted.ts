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

/**
 * Runs `request`; once the app's first statement matching `statement` has run (as the app sends its
 * next one, `commit` included), starts `change` (one statement, committed as it ends) without
 * waiting for it: a change asked while the request's transaction is open and holds what that
 * statement locked, that the embedded database runs once that transaction ends and PostgreSQL once
 * the transaction's locks let it go. Started as the matching statement was sent, PostgreSQL could run
 * the change first on a busy machine. Every read the app sends after that waits `pauseMs` first (the
 * process stands still), so that on PostgreSQL too the change, woken by the commit, is done before a
 * read that follows the commit. Answers the request's answer once the change has settled too.
 */
export async function whileStatementRuns<T>(queries: string[], statement: RegExp, change: () => PromiseLike<unknown>, request: () => Promise<T>, pauseMs = 200): Promise<T> {
  let matched = false;
  let started: Promise<unknown> | undefined;
  queries.push = (...statements: string[]) => {
    if (started && statements.some((text) => /^select/i.test(text))) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pauseMs);
    // A drizzle query runs once awaited: started here, before the request's next statement.
    if (matched && !started) started = Promise.resolve(change());
    if (statements.some((text) => statement.test(text))) matched = true;
    return Array.prototype.push.apply(queries, statements);
  };
  try {
    return await request();
  } finally {
    delete (queries as { push?: unknown }).push;
    await started;
    expect(started, `no statement after one matching ${statement}`).toBeDefined();
  }
}
