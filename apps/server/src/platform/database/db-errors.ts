import { NO_ANSWER } from './timeouts';

/** What a driver's or Drizzle's error may carry; every field is read as unknown. */
interface ErrorFields {
  code?: unknown;
  constraint?: unknown;
  message?: unknown;
  query?: unknown;
  syscall?: unknown;
  cause?: unknown;
}

/** `error` and the errors it wraps (Drizzle puts the driver's error in `cause`), outermost first, at most five. */
function* errorChain(error: unknown): Generator<ErrorFields> {
  let current = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    yield current as ErrorFields;
    current = (current as ErrorFields).cause;
  }
}

/**
 * True when `error`, or an error it wraps (Drizzle puts the driver's error in `cause`), is
 * PostgreSQL's unique violation (SQLSTATE 23505) on the named constraint or unique index.
 * node-postgres and PGlite both report `code` and `constraint`.
 */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (const { code, constraint: violated } of errorChain(error)) if (code === '23505') return violated === constraint;
  return false;
}

/**
 * True when `error`, or an error it wraps, is PostgreSQL's data exception (SQLSTATE class 22: a
 * value it cannot store or read, such as a JSON text it refuses): the value is at fault, not the
 * moment, and asking again changes nothing.
 */
export function isDataException(error: unknown): boolean {
  for (const { code } of errorChain(error)) if (typeof code === 'string' && code.startsWith('22')) return true;
  return false;
}

/**
 * True when `error`, or an error it wraps, is PostgreSQL's foreign key violation (SQLSTATE 23503) on
 * the named constraint: what a row named has been deleted by another transaction meanwhile.
 */
export function isForeignKeyViolation(error: unknown, constraint: string): boolean {
  for (const { code, constraint: violated } of errorChain(error)) if (code === '23503') return violated === constraint;
  return false;
}

/**
 * True when `error`, or an error it wraps, is PostgreSQL giving up a wait for a lock after the
 * transaction's `lock_timeout` (SQLSTATE 55P03).
 */
export function isLockTimeout(error: unknown): boolean {
  for (const { code } of errorChain(error)) if (code === '55P03') return true;
  return false;
}

/**
 * node-postgres's own errors for a connection that is gone or never came (they carry no SQLSTATE),
 * and ours for one given up unanswered (timeouts.ts): a connection not opened in time ('timeout
 * expired'), no pooled one free in time, a statement left unanswered.
 */
const LOST_CONNECTION_MESSAGES = [
  'Connection terminated',
  'Connection terminated unexpectedly',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Connection terminated due to connection timeout',
  'timeout expired',
  'timeout exceeded when trying to connect',
  NO_ANSWER,
];

const SOCKET_FAILURES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNREFUSED']);

/**
 * True when `error`, or an error it wraps, says the database connection is gone: the server ended
 * it (a restart, a failover, an administrator: SQLSTATE class 57P; an idle transaction held too
 * long: 25P03; class 08), its socket failed, or node-postgres found it closed. Whatever the statement's transaction
 * wrote was not committed (unless the loss came during COMMIT itself, which a keyed write's
 * replay covers), so the request may be sent again.
 */
export function isConnectionLost(error: unknown): boolean {
  let underStatement = false;
  for (const { code, message, query, syscall } of errorChain(error)) {
    if (typeof code === 'string' && (code.startsWith('57P') || code.startsWith('08') || code === '25P03')) return true;
    if (typeof message === 'string' && LOST_CONNECTION_MESSAGES.includes(message)) return true;
    // The socket failed under a statement (a reset, a broken pipe, a network gone quiet): Drizzle's
    // error names the statement, the driver's socket error is its cause. (Not a photo process's pipe.)
    if (underStatement && typeof syscall === 'string' && typeof code === 'string' && SOCKET_FAILURES.has(code)) return true;
    if (typeof query === 'string') underStatement = true;
  }
  return false;
}

/**
 * True when PostgreSQL ended the statement's transaction because it crossed another's at the same
 * moment: a deadlock (40P01) or a serialization failure (40001). Nothing it wrote was committed, and
 * the same request may be sent again.
 */
export function isConcurrentChangeFailure(error: unknown): boolean {
  for (const { code } of errorChain(error)) if (code === '40P01' || code === '40001') return true;
  return false;
}

/** Node's errors for a file that found no room: the disk is full, or the user's quota. */
const NO_ROOM = new Set(['ENOSPC', 'EDQUOT']);

/**
 * What says the disk is full in `error` or an error it wraps, for the log (the database's or the
 * system's words, "could not extend file …: No space left on device"; no stack), or undefined when
 * nothing does: PostgreSQL's (the embedded one's too) `disk_full` (SQLSTATE 53100: a table, an
 * index or a temporary file could not grow), or a file the server writes itself (an upload spooled
 * to disk) that found no room. The statement's transaction did not commit; the same request can go
 * again once there is room.
 */
export function diskFull(error: unknown): { code: string; reason: string } | undefined {
  for (const { code, message } of errorChain(error)) {
    if (typeof code === 'string' && (code === '53100' || NO_ROOM.has(code))) return { code, reason: typeof message === 'string' ? message : code };
  }
  return undefined;
}
