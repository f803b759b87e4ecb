import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock';
import { embeddedDatabaseExists, startEmbeddedHost, type EmbeddedHost, type EmbeddedHostKind } from './embedded';
import { startEmbeddedMaintenance } from './embedded-maintenance';
import { copyEmbeddedTemplate, embeddedTemplatesRoot, migrationsFolder } from './embedded-template';
import { openChangeFeed, type ChangeFeed } from './change-feed';
import { createListener, createPoolListener } from './listener';
import { consoleLog, openPool, type DatabaseLog } from './statements';
import { DATABASE_TIMEOUTS, type DatabaseTimeouts } from './timeouts';
import type { Db } from './types';

export type { Db, DbOrTx, Tx } from './types';

export interface Database {
  db: Db;
  /**
   * For live notification pushes: on PostgreSQL a small pool of its own, so a push never waits
   * behind API requests queued for `db`'s connections (under load that wait was most of the
   * delivery latency). PGlite has one connection: the same as `db`.
   */
  liveDb: Db;
  kind: 'pglite' | 'postgres';
  /** Every change announced on commit, by any instance (one listening connection). */
  changes: ChangeFeed;
  /** PGlite in a data directory: where, and a copy of its database files at one instant (an online backup). */
  files?: { dataDir: string; copyFiles(target: string): Promise<{ pausedMs: number }> };
  /** What the metrics read: the pools' connections, and the embedded database's maintenance. */
  stats(): DatabaseStats;
  /** Flushes and closes; safe to call twice. */
  close(): Promise<void>;
}

export interface PoolStats {
  /** `main` serves requests; `live` reads live pushes (PostgreSQL only). */
  pool: 'main' | 'live';
  open: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

export interface DatabaseStats {
  pools: PoolStats[];
  /**
   * PGlite only: its autovacuum stand-in's rounds that found work, their statements and time, and
   * its failures, since the start; `looked`: every round that looked at the tables, work or not.
   */
  maintenance?: { rounds: number; looked: number; statements: number; seconds: number; failures: number };
}

function poolStats(pool: 'main' | 'live', of: pg.Pool): PoolStats {
  return { pool, open: of.totalCount, idle: of.idleCount, waiting: of.waitingCount };
}

export type DatabaseOptions =
  | {
      kind: 'postgres';
      url: string;
      poolSize?: number;
      onQuery?: (sql: string, params: unknown[]) => void;
      /** How long PostgreSQL may keep the server waiting (DATABASE_TIMEOUTS unless set; a test shortens them). */
      timeouts?: DatabaseTimeouts;
      /** Where lost connections are reported (the server's log). */
      log?: DatabaseLog;
    }
  | {
      kind: 'pglite';
      dataDir: string | null;
      host?: EmbeddedHostKind;
      snapshot?: string;
      /**
       * In memory only (tests): once closed, its thread is kept for the next in-memory database this
       * process opens with `keepThread`, which then starts in it, from the same snapshot or another.
       */
      keepThread?: boolean;
      /** Where the build's migrated templates are (a new data directory is copied from one); null: create it with initdb. */
      templates?: string | null;
      onQuery?: (sql: string, params: unknown[]) => void;
      /** How often the maintenance looks at the tables (MAINTENANCE_INTERVAL_MS unless set; a test shortens it). */
      maintenanceIntervalMs?: number;
      /** Where a failed maintenance round is reported (the server's log). */
      log?: DatabaseLog;
    };

export { migrationsFolder };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const logger = options.onQuery ? { logQuery: (query: string, params: unknown[]) => options.onQuery?.(query, params) } : false;
  if (options.kind === 'postgres') {
    const timeouts = options.timeouts ?? DATABASE_TIMEOUTS;
    const log = options.log ?? consoleLog;
    await migrateOnce(options.url, timeouts);
    // keepAlive is a last resort: the system's first probe comes after its own delay (2 h on Linux).
    // A quiet database is noticed by the answer timeout and the listener's heartbeat.
    const waits = { connectionTimeoutMillis: timeouts.connectMs, answerTimeoutMs: timeouts.answerMs, keepAlive: true };
    const pool = openPool({ connectionString: options.url, max: options.poolSize ?? 10, ...waits }, log);
    const db = drizzlePostgres({ client: pool, logger });
    const livePool = openPool({ connectionString: options.url, max: LIVE_POOL_SIZE, application_name: 'siteboard-live', ...waits }, log);
    const listener = createListener(options.url, timeouts, log);
    const changes = await openChangeFeed(listener, db);
    return {
      db,
      liveDb: drizzlePostgres({ client: livePool, logger }),
      kind: 'postgres',
      changes,
      stats: () => ({ pools: [poolStats('main', pool), poolStats('live', livePool)] }),
      close: once(async () => {
        await changes.close();
        await listener.close();
        await Promise.all([pool.end(), livePool.end()]);
      }),
    };
  }

  const release = options.dataDir ? lockDataDir(options.dataDir) : () => {};
  try {
    const host = options.host ?? 'thread';
    const templates = options.templates === undefined ? embeddedTemplatesRoot : options.templates;
    if (options.dataDir && !embeddedDatabaseExists(options.dataDir) && !(templates !== null && copyEmbeddedTemplate(options.dataDir, templates))) {
      // No template for this PGlite and these migrations (a build makes one): creating a database
      // (initdb) and migrating it take seconds and leave hundreds of megabytes behind that PGlite's
      // WebAssembly memory never gives back, so a process of its own does it, and then ends.
      await migrateEmbedded(await startEmbeddedHost(options.dataDir, 'process', undefined, { log: options.log }), true, options.log);
    }
    const embedded = await startEmbeddedHost(options.dataDir, host, options.snapshot, { keepThread: options.keepThread, log: options.log });
    const pool = await migrateEmbedded(embedded, false, options.log);
    const db = drizzlePostgres({ client: pool, logger });
    const changes = await openChangeFeed(createPoolListener(pool), db);
    // PGlite has no autovacuum: without fresh statistics its cached plans keep scanning whole tables as they grow.
    const maintained = { rounds: 0, looked: 0, statements: 0, seconds: 0, failures: 0 };
    const maintenance = startEmbeddedMaintenance(pool, {
      intervalMs: options.maintenanceIntervalMs,
      onLooked: () => maintained.looked++,
      onRound: (round) => {
        maintained.rounds++;
        maintained.statements += round.statements.length;
        maintained.seconds += round.ms / 1000;
      },
      onError: (error) => {
        maintained.failures++;
        (options.log ?? consoleLog).warn({ err: error }, 'embedded database maintenance failed');
      },
    });
    return {
      db,
      liveDb: db,
      kind: 'pglite',
      changes,
      files: options.dataDir ? { dataDir: options.dataDir, copyFiles: (target) => embedded.copyFiles(target) } : undefined,
      stats: () => ({ pools: [poolStats('main', pool)], maintenance: { ...maintained } }),
      close: once(async () => {
        try {
          await changes.close();
          await maintenance.stop();
          await pool.end();
          await embedded.close();
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

/** Any fixed number: the one advisory lock the instances of one database migrate under. */
const MIGRATION_LOCK_KEY = 0x5b_0a_4d_02;

/**
 * Brings a PostgreSQL database up to date exactly once when several instances start together:
 * each migrates on a connection holding a session advisory lock, so the first migrates while the
 * others wait for it, then find nothing left to do. Without it they all see an empty migrations
 * table and run the same migrations at once (four processes started together, twice: three of
 * them died on `duplicate key value` in `create schema` or `create type`; migrate-once.test.ts).
 */
async function migrateOnce(url: string, timeouts: DatabaseTimeouts) {
  const client = new pg.Client({ connectionString: url, application_name: 'siteboard-migrate', connectionTimeoutMillis: timeouts.connectMs });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migratePostgres(drizzlePostgres({ client }), { migrationsFolder });
  } finally {
    // Ending the session releases its lock, whether the migrations failed or not.
    await client.end();
  }
}

/** Brings the embedded database up to date; answers its pool, or closes it all (`thenClose`, or on failure). */
async function migrateEmbedded(embedded: EmbeddedHost, thenClose: boolean, log?: DatabaseLog) {
  const pool = openEmbeddedPool(embedded, log);
  try {
    await migratePostgres(drizzlePostgres({ client: pool }), { migrationsFolder });
  } catch (error) {
    thenClose = true;
    throw error;
  } finally {
    if (thenClose) {
      await pool.end();
      await embedded.close();
    }
  }
  return pool;
}

/**
 * PGlite is one session, which its socket server lends to one connection at a time, by turns
 * (embedded-session-server.ts): several connections keep the next statements waiting at the
 * database instead of in the pool, so it never idles while the server's event loop is busy
 * reading an answer. The session's prepared statements are shared by all of them.
 */
function openEmbeddedPool(embedded: EmbeddedHost, log?: DatabaseLog) {
  return openPool({
    host: embedded.socketDir,
    user: 'postgres',
    database: 'postgres',
    max: EMBEDDED_CONNECTIONS,
    idleTimeoutMillis: 0,
  }, log);
}

/** Enough to keep a statement waiting while the event loop reads the last answer; more only queue at the database. */
const EMBEDDED_CONNECTIONS = Number(process.env.SITEBOARD_EMBEDDED_CONNECTIONS ?? 4);

/** The database the configuration names: PostgreSQL when DATABASE_URL is set, else PGlite in the data directory. */
export function openConfiguredDatabase(config: { DATABASE_URL?: string; DB_POOL_SIZE: number; dataDir: string }, log?: DatabaseLog, timeouts?: DatabaseTimeouts): Promise<Database> {
  return config.DATABASE_URL
    ? openDatabase({ kind: 'postgres', url: config.DATABASE_URL, poolSize: config.DB_POOL_SIZE, log, timeouts })
    : openDatabase({ kind: 'pglite', dataDir: config.dataDir, host: process.env.SITEBOARD_EMBEDDED_HOST === 'process' ? 'process' : 'thread', log });
}

/** Pushes are one short read each: two connections keep up with hundreds a second. */
const LIVE_POOL_SIZE = 2;

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}
