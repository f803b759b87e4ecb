import { sql } from 'drizzle-orm';
import pg from 'pg';
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

/** How long a read waits for the competing change at most before it goes, and the test fails. */
const CHANGE_ANSWER_MS = 10_000;

/**
 * Runs `request`; once the app's first statement matching `statement` has run (as the app sends its
 * next one, `commit` included), starts `change` (one statement, committed as it ends) without
 * waiting for it: a change asked while the request's transaction is open and holds what that
 * statement locked, that the embedded database runs once that transaction ends and PostgreSQL once
 * the transaction's locks let it go. Started as the matching statement was sent, PostgreSQL could run
 * the change first on a busy machine. From then on, every read the app sends outside a transaction
 * (the read after the commit) waits until the change has answered, so it sees the database as the
 * change left it; reads inside the transaction go at once (the change waits for that transaction).
 * Answers the request's answer once the change has settled too.
 */
export async function whileStatementRuns<T>(queries: string[], statement: RegExp, change: () => PromiseLike<unknown>, request: () => Promise<T>): Promise<T> {
  let matched = false;
  let started: Promise<unknown> | undefined;
  let answered = false;
  let unanswered = false;
  queries.push = (...statements: string[]) => {
    // A drizzle query runs once awaited: started here, before the request's next statement.
    if (matched && !started) started = Promise.resolve(change()).finally(() => (answered = true));
    if (statements.some((text) => statement.test(text))) matched = true;
    return Array.prototype.push.apply(queries, statements);
  };
  // Statements reach the database through node-postgres's clients (both databases): a read is held
  // back there, before it is sent, while the hook above (the app's log) cannot wait.
  const send = pg.Client.prototype.query;
  const inTransaction = new WeakSet<pg.Client>();
  const changeAnswered = () => {
    let bound: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      bound = setTimeout(() => {
        unanswered = true;
        resolve();
      }, CHANGE_ANSWER_MS);
    });
    return Promise.race([started!.then(noop, noop), late]).finally(() => clearTimeout(bound));
  };
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const text = (typeof args[0] === 'string' ? args[0] : ((args[0] as { text?: string } | undefined)?.text ?? '')).trim();
    if (/^begin\b/i.test(text)) inTransaction.add(this);
    else if (/^(commit|rollback)$/i.test(text)) inTransaction.delete(this);
    const sendNow = () => (send as (...args: unknown[]) => unknown).apply(this, args);
    if (!started || answered || inTransaction.has(this) || !/^select/i.test(text)) return sendNow();
    // A pool's own query() passes a callback and takes no promise; drizzle's transactions await one.
    if (args.some((arg) => typeof arg === 'function')) return void changeAnswered().then(sendNow);
    return changeAnswered().then(sendNow);
  } as typeof send;
  try {
    return await request();
  } finally {
    pg.Client.prototype.query = send;
    delete (queries as { push?: unknown }).push;
    await started;
    expect(started, `no statement after one matching ${statement}`).toBeDefined();
    expect(unanswered, `the change had not answered ${CHANGE_ANSWER_MS} ms after a read waited for it`).toBe(false);
  }
}

const noop = () => {};
