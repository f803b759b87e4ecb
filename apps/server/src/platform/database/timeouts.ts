/**
 * How long PostgreSQL may keep the server waiting. A database that refuses or drops connections is
 * noticed at once; one that goes quiet (a host frozen, a network that drops packets) answers
 * nothing, and without these every request, readiness probe and metrics scrape would wait for it
 * for as long as the operating system keeps the connection (a quarter of an hour or more).
 */
export interface DatabaseTimeouts {
  /** Opening a connection, or waiting for one of the pool's when all are lent out. */
  connectMs: number;
  /**
   * A statement left unanswered this long gives its connection up (the pool opens another): well
   * beyond any statement the server runs (lists are bounded, exports read in batches), so only a
   * database that went quiet reaches it. Migrations, which may build an index for minutes, run on
   * a connection of their own without it.
   */
  answerMs: number;
  /**
   * How often the listening connection asks the database something (and gives the connection up
   * when no answer comes within `connectMs`). It only ever receives, so a connection whose database
   * went away without a word (a host restarted behind a quiet network) would otherwise wait for
   * announcements that never come, while readiness says it listens.
   */
  heartbeatMs: number;
}

export const DATABASE_TIMEOUTS: DatabaseTimeouts = { connectMs: 5_000, answerMs: 30_000, heartbeatMs: 10_000 };

/** How long readiness and a metrics scrape wait for the database before saying it is unreachable. */
export const DATABASE_CHECK_MS = 2_000;

/** The error of a statement whose connection was given up (db-errors.ts counts it as a lost connection). */
export const NO_ANSWER = 'The database did not answer in time';

/** `promise`, or a rejection with `message` once `ms` have passed (the promise itself goes on). */
export function withinTime<T>(promise: Promise<T>, ms: number, message = NO_ANSWER): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
