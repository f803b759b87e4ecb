import { createHash } from 'node:crypto';
import type { Placeholder } from 'drizzle-orm';
import pg from 'pg';
import { NO_ANSWER } from './timeouts';
import type { DbOrTx } from './types';

/**
 * Each prepared statement is planned once, for any parameters (a generic plan), never again per
 * call: PostgreSQL's default kept re-planning the task lists on every call because their generic
 * plan's estimate was higher, though it is the same plan and ran faster (decision record 005).
 * Every statement here finds its rows by company and ids on indexes, a plan that does not depend
 * on the values.
 */
export const SESSION_OPTIONS = '-c plan_cache_mode=force_generic_plan';

/** A value of a statement built once: the value itself, or where it goes when executed. */
export type IdOrPlaceholder = number | Placeholder;

/**
 * A statement drizzle builds once per database and prepares, for reads of a fixed shape that
 * requests run over and over: building the SQL text of a big select (an opened project's, with
 * its nested subqueries) cost drizzle more CPU than running and reading it. Values go in as
 * `sql.placeholder(...)` when it is executed. A transaction is a new object every time, so run
 * on one the statement is built anew: a write reads its answer after committing where it can.
 */
export function builtOncePerDatabase<Statement>(build: (db: DbOrTx) => Statement): (db: DbOrTx) => Statement {
  const statements = new WeakMap<DbOrTx, Statement>();
  return (view) => {
    // A keyed photo upload's database (platform/http/idempotency.ts) is the pool until its write
    // begins, then that transaction: a statement is built for what it is now.
    const db = views.get(view)?.() ?? view;
    let statement = statements.get(db);
    if (!statement) {
      statement = build(db);
      statements.set(db, statement);
    }
    return statement;
  };
}

const views = new WeakMap<object, () => DbOrTx>();

/** Registers an object that stands for another database as `current()` says at each use. */
export function registerDatabaseView(view: object, current: () => DbOrTx): void {
  views.set(view, current);
}

interface Prepared<Row> {
  execute(values: Record<string, unknown>): Promise<Row[]>;
}

/**
 * Statements of one kind built once per database and per shape, then prepared: for reads whose
 * shape varies with which filters are present (never with their values), so that a few dozen
 * shapes at most are ever built. `shape` names the shape; the statement is prepared under a name
 * derived from it.
 */
export function builtOncePerShape(prefix: string) {
  const statements = builtOncePerDatabase(() => new Map<string, Prepared<unknown>>());
  return <Row>(db: DbOrTx, shape: string, build: () => { prepare(name: string): Prepared<Row> }): Prepared<Row> => {
    const built = statements(db);
    let statement = built.get(shape) as Prepared<Row> | undefined;
    if (!statement) {
      statement = build().prepare(`${prefix}_${createHash('sha1').update(shape).digest('hex').slice(0, 16)}`);
      built.set(shape, statement);
    }
    return statement;
  };
}

/** How many distinct statement texts get a prepared statement; past it a statement goes unnamed, as node-postgres sends them by default. */
const PREPARED_STATEMENTS_MAX = 500;
const statementNames = new Map<string, string>();

/** The name a statement text is prepared under, or undefined once the cap is reached. */
function preparedName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < PREPARED_STATEMENTS_MAX) {
    name = `siteboard_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * A connection that sends every parameterised statement as a named prepared statement, so
 * PostgreSQL parses and plans it once per connection instead of on every call: planning was a
 * third of PostgreSQL's time on the task lists, more than executing them. The cap bounds what
 * each connection keeps when statement texts vary (an IN list of another length is another text).
 * With `answerTimeoutMs` (PostgreSQL's pools), a statement unanswered that long gives the
 * connection up (timeouts.ts).
 */
class PreparingClient extends pg.Client {
  readonly answerTimeoutMs: number | undefined;
  constructor(config?: pg.ClientConfig & { answerTimeoutMs?: number }) {
    super(config);
    this.answerTimeoutMs = config?.answerTimeoutMs;
  }
}
PreparingClient.prototype.query = function (this: PreparingClient, ...args: unknown[]) {
  const [config, values] = args;
  if (isUnnamedStatement(config) && Array.isArray(values) && values.length > 0) {
    const name = preparedName(config.text);
    if (name) args[0] = { ...config, name };
  }
  const ms = this.answerTimeoutMs;
  // A pool's own query() passes a callback (and gets no promise); drizzle's transactions await one.
  const callback = ms ? args.findIndex((arg) => typeof arg === 'function') : -1;
  if (ms && callback !== -1) {
    const answered = args[callback] as (...answer: unknown[]) => void;
    let settle = () => {};
    giveUpUnanswered(this, new Promise<void>((resolve) => (settle = resolve)), ms);
    args[callback] = (...answer: unknown[]) => {
      settle();
      answered(...answer);
    };
  }
  const result = (pg.Client.prototype.query as (...args: unknown[]) => unknown).apply(this, args);
  if (ms && callback === -1 && result instanceof Promise) giveUpUnanswered(this, result, ms);
  return result;
} as pg.Client['query'];

/**
 * Ends `client`'s connection when `answer` has not come within `ms`: the statement and any queued
 * behind it fail with NO_ANSWER (a lost connection: 503, db-errors.ts), and a pool drops the
 * connection instead of lending it again. A quiet socket otherwise waits for the operating
 * system to give it up, a quarter of an hour or more.
 */
export function giveUpUnanswered(client: pg.Client, answer: Promise<unknown>, ms: number): void {
  const timer = setTimeout(() => (client as unknown as { connection: { stream: { destroy(error: Error): void } } }).connection.stream.destroy(new Error(NO_ANSWER)), ms);
  timer.unref();
  const done = () => clearTimeout(timer);
  answer.then(done, done);
}

function isUnnamedStatement(config: unknown): config is pg.QueryConfig {
  return isStatement(config) && !config.name;
}

/** Where the connections report what happens to them: the server's log (a test's console by default). */
export interface DatabaseLog {
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

const consoleLine = (fields: Record<string, unknown>, message: string) => (fields.err instanceof Error ? `${message}: ${fields.err.message}` : message);
export const consoleLog: DatabaseLog = { warn: (fields, message) => console.warn(consoleLine(fields, message)), error: (fields, message) => console.error(consoleLine(fields, message)) };

export function openPool(config: pg.PoolConfig & { answerTimeoutMs?: number }, log: DatabaseLog = consoleLog): pg.Pool {
  const pool = new pg.Pool({ ...config, Client: PreparingClient, options: SESSION_OPTIONS });
  // A connection the database ends (a restart, a failover, a dropped test database, the embedded
  // session's hold limit) must not end the process. node-postgres reports it as an 'error' event
  // on the client, which throws where nothing listens: the pool listens only while the connection
  // is idle (and then replaces it), so each connection listens for the time it is lent out too;
  // the request holding it then fails at its next statement (503, errors.ts) and the pool drops it.
  pool.on('connect', (client) => client.on('error', (error) => log.warn({ err: error }, 'database connection lost')));
  pool.on('error', () => {});
  return pool;
}

/** A statement's text and values, named or not; not a cursor (a read that streams an export). */
function isStatement(config: unknown): config is pg.QueryConfig {
  return typeof config === 'object' && config !== null && typeof (config as pg.QueryConfig).text === 'string' && typeof (config as { submit?: unknown }).submit !== 'function';
}
