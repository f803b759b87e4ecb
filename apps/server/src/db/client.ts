import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations, Placeholder } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { Config } from '../config';
import * as authTables from './schema/auth';
import * as companyTables from './schema/companies';
import * as notificationTables from './schema/notifications';
import * as projectTables from './schema/projects';
import * as taskTables from './schema/tasks';
import * as userTables from './schema/users';

export const schema = {
  ...companyTables,
  ...userTables,
  ...projectTables,
  ...taskTables,
  ...notificationTables,
  ...authTables,
};
type Schema = typeof schema;

/** The one database type every query takes: PGlite and node-postgres share it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  /**
   * For live notification pushes: on PostgreSQL a small pool of its own, so a push never waits
   * behind API requests queued for `db`'s connections (under load that wait was most of the
   * delivery latency). PGlite has one connection: the same as `db`.
   */
  liveDb: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Calls `handler` with the payload of each NOTIFY on `channel` (sent on commit by any
   * connection to the same database), over one listening connection per Database. Answers the
   * function that stops it.
   */
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  /** Flushes and closes; safe to call twice. */
  close(): Promise<void>;
}

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number; onQuery?: (sql: string, params: unknown[]) => void }
  | { kind: 'pglite'; dataDir: string | null; onQuery?: (sql: string, params: unknown[]) => void };

const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const logger = options.onQuery ? { logQuery: (query: string, params: unknown[]) => options.onQuery?.(query, params) } : false;
  if (options.kind === 'postgres') {
    const pool = openPool({ connectionString: options.url, max: options.poolSize ?? 10 });
    const db = drizzlePostgres({ client: pool, schema, logger });
    await migratePostgres(db, { migrationsFolder });
    const livePool = openPool({ connectionString: options.url, max: LIVE_POOL_SIZE, application_name: 'siteboard-live' });
    const listener = createListener(options.url);
    return {
      db,
      liveDb: drizzlePostgres({ client: livePool, schema, logger }),
      kind: 'postgres',
      listen: listener.listen,
      close: once(async () => {
        await listener.close();
        await Promise.all([pool.end(), livePool.end()]);
      }),
    };
  }

  const release = options.dataDir ? lockDataDir(options.dataDir) : () => {};
  try {
    const client = await PGlite.create(options.dataDir ? path.join(options.dataDir, 'pgdata') : undefined);
    const db = drizzlePglite({ client, schema, logger });
    await migratePglite(db, { migrationsFolder });
    return {
      db,
      liveDb: db,
      kind: 'pglite',
      // PGlite is one connection: it listens on the one every query uses.
      listen: async (channel, handler) => {
        const unlisten = await client.listen(assertChannel(channel), handler);
        return async () => {
          if (!client.closed) await unlisten();
        };
      },
      close: once(async () => {
        try {
          await client.query('CHECKPOINT');
          await client.close();
        } finally {
          release();
        }
      }),
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** The database the configuration names: PostgreSQL when DATABASE_URL is set, else PGlite in the data directory. */
export function openConfiguredDatabase(config: Pick<Config, 'DATABASE_URL' | 'DB_POOL_SIZE' | 'dataDir'>): Promise<Database> {
  return config.DATABASE_URL
    ? openDatabase({ kind: 'postgres', url: config.DATABASE_URL, poolSize: config.DB_POOL_SIZE })
    : openDatabase({ kind: 'pglite', dataDir: config.dataDir });
}

/**
 * Each prepared statement is planned once, for any parameters (a generic plan), never again per
 * call: PostgreSQL's default kept re-planning the task lists on every call because their generic
 * plan's estimate was higher, though it is the same plan and ran faster (pending approvals, first
 * 20: 2.4 ms a call generic, 5.1 ms re-planned). Every statement here finds its rows by company and
 * ids on indexes, a plan that does not depend on the values.
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
  return (db) => {
    let statement = statements.get(db);
    if (!statement) {
      statement = build(db);
      statements.set(db, statement);
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
 */
class PreparingClient extends pg.Client {}
PreparingClient.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const [config, values] = args;
  if (isUnnamedStatement(config) && Array.isArray(values) && values.length > 0) {
    const name = preparedName(config.text);
    if (name) args[0] = { ...config, name };
  }
  return (pg.Client.prototype.query as (...args: unknown[]) => unknown).apply(this, args);
} as pg.Client['query'];

function isUnnamedStatement(config: unknown): config is pg.QueryConfig {
  return typeof config === 'object' && config !== null && typeof (config as pg.QueryConfig).text === 'string' && !(config as pg.QueryConfig).name;
}

function openPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({ ...config, Client: PreparingClient, options: SESSION_OPTIONS });
  // An idle connection dropped by the server (restart, failover, a dropped test database) must
  // not crash the process: the pool replaces it on the next checkout.
  pool.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
  return pool;
}

/** Pushes are one short read each: two connections keep up with hundreds a second. */
const LIVE_POOL_SIZE = 2;

const LISTEN_RETRY_FIRST_MS = 500;
const LISTEN_RETRY_MAX_MS = 30_000;

function assertChannel(channel: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name: ${channel}`);
  return channel;
}

/**
 * The one connection a PostgreSQL instance LISTENs on, outside the pool (a pooled connection
 * would be handed to queries). When it is lost it reconnects with backoff and LISTENs again;
 * what was announced meanwhile is not replayed (clients refetch when they reconnect).
 */
function createListener(url: string) {
  const handlers = new Map<string, Set<(payload: string) => void>>();
  let current: { client: pg.Client; channels: Set<string> } | undefined;
  let connecting: Promise<{ client: pg.Client; channels: Set<string> }> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryMs = LISTEN_RETRY_FIRST_MS;
  let closed = false;

  async function connect() {
    const client = new pg.Client({ connectionString: url, application_name: 'siteboard-listener' });
    const connection = { client, channels: new Set<string>() };
    client.on('notification', (message) => {
      for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    client.on('error', (error) => {
      console.warn(`PostgreSQL listening connection lost: ${error.message}`);
      lost(connection);
    });
    client.on('end', () => lost(connection));
    await client.connect();
    for (const channel of handlers.keys()) await subscribe(connection, channel);
    return connection;
  }

  async function subscribe(connection: { client: pg.Client; channels: Set<string> }, channel: string) {
    if (connection.channels.has(channel)) return;
    await connection.client.query(`listen ${channel}`);
    connection.channels.add(channel);
  }

  function lost(connection: { client: pg.Client }) {
    if (current?.client !== connection.client) return;
    current = undefined;
    connection.client.end().catch(() => {});
    scheduleReconnect();
  }

  function scheduleReconnect() {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(async () => {
      retryTimer = undefined;
      try {
        await ensureConnected();
        retryMs = LISTEN_RETRY_FIRST_MS;
      } catch (error) {
        console.warn(`PostgreSQL listening connection: reconnecting failed (${(error as Error).message}); retrying in ${retryMs} ms`);
        retryMs = Math.min(retryMs * 2, LISTEN_RETRY_MAX_MS);
        scheduleReconnect();
      }
    }, retryMs);
    retryTimer.unref();
  }

  async function ensureConnected() {
    if (current) return current;
    connecting ??= connect().finally(() => (connecting = undefined));
    const connection = await connecting;
    if (closed) {
      await connection.client.end().catch(() => {});
      throw new Error('The database is closed.');
    }
    current = connection;
    return connection;
  }

  return {
    async listen(channel: string, handler: (payload: string) => void) {
      assertChannel(channel);
      const set = handlers.get(channel) ?? new Set();
      set.add(handler);
      handlers.set(channel, set);
      await subscribe(await ensureConnected(), channel);
      return async () => {
        set.delete(handler);
        if (set.size > 0 || handlers.get(channel) !== set) return;
        handlers.delete(channel);
        if (current?.channels.delete(channel)) await current.client.query(`unlisten ${channel}`).catch(() => {});
      };
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const connection = current ?? (await connecting?.catch(() => undefined));
      current = undefined;
      await connection?.client.end().catch(() => {});
    },
  };
}

export class DataDirLockedError extends Error {}

/**
 * PGlite is one process per data directory: a second process would corrupt it. The lock file
 * holds the owner's pid, so a lock left by a killed process is recognised and taken over.
 */
function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'siteboard.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(fs.readFileSync(lockPath, 'utf8'));
      // A lock naming this very process is stale: in a container every start is pid 1, so a killed server's lock names its successor.
      if (owner !== process.pid && isRunning(owner)) {
        throw new DataDirLockedError(
          `The data directory ${dataDir} is in use by another SiteBoard process (pid ${owner}). Stop it first, or set DATA_DIR to another folder.`,
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dataDir}.`);
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}
