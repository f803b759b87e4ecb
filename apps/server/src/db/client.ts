import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { Config } from '../config';
import * as activityTables from './schema/activity';
import * as authTables from './schema/auth';
import * as calendarTables from './schema/calendar';
import * as companyTables from './schema/companies';
import * as notificationTables from './schema/notifications';
import * as projectTables from './schema/projects';
import * as taskTables from './schema/tasks';
import * as userTables from './schema/users';
import { lockDataDir } from './data-dir-lock';
import { assertChannel, createListener } from './listener';
import { openPool } from './statements';

export const schema = {
  ...companyTables,
  ...userTables,
  ...projectTables,
  ...taskTables,
  ...activityTables,
  ...notificationTables,
  ...authTables,
  ...calendarTables,
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

/** Pushes are one short read each: two connections keep up with hundreds a second. */
const LIVE_POOL_SIZE = 2;

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}
