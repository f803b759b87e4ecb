import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { buildApp, type App } from '../app';
import { openDatabase, type Database } from '../db/client';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';

export type DatabaseKind = 'pglite' | 'postgres';

let postgresReachable: Promise<boolean> | undefined;
function isPostgresReachable(): Promise<boolean> {
  postgresReachable ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.end();
      return true;
    } catch {
      if (process.env.REQUIRE_POSTGRES === '1') throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL is not reachable at ${TEST_DATABASE_URL}`);
      console.warn(`\n*** PostgreSQL is not reachable at ${TEST_DATABASE_URL}: the PostgreSQL API suites are SKIPPED. ***\n`);
      return false;
    }
  })();
  return postgresReachable;
}

async function adminQuery(statement: string) {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh, empty, migrated database of the given kind; `drop` removes every trace of it. */
export async function createTestDatabase(kind: DatabaseKind, onQuery?: (sql: string) => void): Promise<Database & { drop(): Promise<void> }> {
  if (kind === 'pglite') {
    const database = await openDatabase({ kind: 'pglite', dataDir: null, onQuery });
    return { ...database, drop: database.close };
  }
  const name = `siteboard_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 5, onQuery });
  return {
    ...database,
    drop: async () => {
      await database.close();
      await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}

export interface TestContext {
  app: App;
  database: Database;
  kind: DatabaseKind;
  /** Every SQL statement the app ran since the last reset: for N+1 checks. */
  queries: string[];
}

/**
 * Runs the suite once per database (PGlite, then PostgreSQL), each on a fresh database built
 * before the suite and dropped after it. PostgreSQL is skipped, loudly, only when unreachable and
 * REQUIRE_POSTGRES is not set.
 */
export function describeEachDatabase(title: string, suite: (ctx: TestContext) => void) {
  for (const kind of ['pglite', 'postgres'] as const) {
    describe(`${title} [${kind}]`, async () => {
      const skip = kind === 'postgres' && !(await isPostgresReachable());
      const ctx = {} as TestContext;
      let drop: (() => Promise<void>) | undefined;
      beforeAll(async () => {
        if (skip) return;
        ctx.queries = [];
        const database = await createTestDatabase(kind, (sql) => ctx.queries.push(sql));
        drop = database.drop;
        ctx.database = database;
        ctx.kind = kind;
        ctx.app = await buildApp({ database, jwtSecret: TEST_JWT_SECRET });
        await ctx.app.ready();
      });
      afterAll(async () => {
        await ctx.app?.close();
        await drop?.();
      });
      if (skip) describe.skip('PostgreSQL unreachable', () => {});
      else suite(ctx);
    });
  }
}
