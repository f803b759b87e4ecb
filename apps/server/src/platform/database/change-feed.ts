import { randomUUID } from 'node:crypto';
import type { DbOrTx } from './types';

/**
 * The one channel every change that an instance must hear about is announced on, on commit,
 * whichever instance (or script, or operator) made it: `<kind>:<detail>`, e.g. `u:42` (a user
 * changed), `f:<uuid>` (a login ended), `n:{…}` (a notification to deliver), `j:<queue>` (a job
 * is waiting). Announcements carry ids only, far below NOTIFY's 8,000 bytes.
 */
export const CHANGES_CHANNEL = 'siteboard_changes';

/** How long a marker waits to come back before its sender gives up on hearing it. */
const MARKER_TIMEOUT_MS = 2_000;
const MARKER_KIND = 'sync';

export type MissedBecause = 'lost' | 'reconnected' | 'unconfirmed';

export interface ChangeFeed {
  /** Calls `handler` with the detail of every change of this kind; answers the function that stops it. */
  on(kind: string, handler: (detail: string) => void): () => void;
  /**
   * Calls `handler` whenever this instance may have missed announcements: its listening connection
   * was `lost`, is listening again (`reconnected`: what was announced in between never came), or a
   * marker did not come back in time (`unconfirmed`). Whatever was kept on their word is stale.
   */
  onMissed(handler: (why: MissedBecause) => void): () => void;
  /** Whether the listening connection is up: while it is not, nothing may be kept on the feed's word. */
  readonly listening: boolean;
  /**
   * Resolves once every change committed before the call has reached this instance, and so, since
   * announcements go to every listener at once, every instance: a marker sent now comes back after
   * them (they arrive in commit order).
   */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/** What the feed needs of a database connection: LISTEN on the channel, and NOTIFY outside the pool's queue. */
export interface FeedConnection {
  listen(channel: string, handler: (payload: string) => void, onListening?: (listening: boolean) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
}

const feeds = new WeakMap<DbOrTx, ChangeFeed>();

/** What waits for a request transaction's commit: settling its changes, and work that must not run before (`afterCommit`). */
export interface AfterCommit {
  settleWanted: boolean;
  work: (() => Promise<unknown>)[];
}

/** The request transactions whose commit is still to come: settling on them is done after it. */
const deferred = new WeakMap<object, AfterCommit>();

/** For a service that has just committed a change others must see: resolves once every instance has heard it. */
export async function settleChanges(db: DbOrTx): Promise<void> {
  const later = deferred.get(db);
  if (later) {
    later.settleWanted = true;
    return;
  }
  await feeds.get(db)?.settle();
}

/**
 * Runs `work` once the changes made through `db` are committed: now, when they are (a service's
 * own transaction has ended), else after the keyed write's transaction commits with its answer,
 * and never if it rolls back. For what cannot be rolled back, such as removing a deleted
 * drawing's files: done before a commit that then fails, it leaves rows without their files.
 */
export async function afterCommit(db: DbOrTx, work: () => Promise<unknown>): Promise<void> {
  const later = deferred.get(db);
  if (later) later.work.push(work);
  // A service's own transaction, still open: "now" would be before its commit.
  else if (typeof (db as { rollback?: unknown }).rollback === 'function') throw new Error('afterCommit is given the database a service wrote through (ctx.db), after its transaction, not the transaction itself.');
  else await work();
}

/**
 * For a transaction that outlives the service's own (a keyed write commits with its answer, after
 * the service returned): `settleChanges` and `afterCommit` on it only note what is to be done,
 * which the owner of the transaction does after the commit; settling inside it would announce
 * nothing yet, and on the embedded database's one connection would wait for the transaction that
 * waits for it.
 */
export function deferUntilCommit(...views: object[]): AfterCommit {
  const later: AfterCommit = { settleWanted: false, work: [] };
  for (const view of views) deferred.set(view, later);
  return later;
}

/** Opens the feed of one database (one listening connection), and ties it to `db` for `settleChanges`. */
export async function openChangeFeed(connection: FeedConnection, db: DbOrTx): Promise<ChangeFeed> {
  const handlers = new Map<string, Set<(detail: string) => void>>();
  const missedHandlers = new Set<(why: MissedBecause) => void>();
  const waiting = new Map<string, () => void>();
  let listening = true;

  const missed = (why: MissedBecause) => {
    for (const handler of missedHandlers) handler(why);
  };
  const stop = await connection.listen(
    CHANGES_CHANNEL,
    (payload) => {
      const colon = payload.indexOf(':');
      const kind = colon < 0 ? payload : payload.slice(0, colon);
      const detail = colon < 0 ? '' : payload.slice(colon + 1);
      if (kind === MARKER_KIND) {
        waiting.get(detail)?.();
        return;
      }
      for (const handler of handlers.get(kind) ?? []) handler(detail);
    },
    (nowListening) => {
      listening = nowListening;
      // Announcements sent while the connection was down are lost.
      missed(nowListening ? 'reconnected' : 'lost');
    },
  );

  const feed: ChangeFeed = {
    on(kind, handler) {
      const set = handlers.get(kind) ?? new Set();
      set.add(handler);
      handlers.set(kind, set);
      return () => set.delete(handler);
    },
    onMissed(handler) {
      missedHandlers.add(handler);
      return () => missedHandlers.delete(handler);
    },
    get listening() {
      return listening;
    },
    async settle() {
      const token = randomUUID();
      let timer: NodeJS.Timeout | undefined;
      const echoed = new Promise<void>((resolve) => {
        waiting.set(token, resolve);
        timer = setTimeout(() => {
          missed('unconfirmed');
          resolve();
        }, MARKER_TIMEOUT_MS);
      });
      try {
        try {
          await connection.notify(CHANGES_CHANNEL, `${MARKER_KIND}:${token}`);
        } catch {
          // Not sent (the listening connection is down and cannot be opened): nothing can be heard.
          missed('unconfirmed');
          return;
        }
        await echoed;
      } finally {
        clearTimeout(timer);
        waiting.delete(token);
      }
    },
    async close() {
      feeds.delete(db);
      await stop();
    },
  };
  feeds.set(db, feed);
  return feed;
}
