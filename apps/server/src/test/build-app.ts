import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { buildApp, type App, type AppOptions } from '../app';
import { openDatabase, type Database } from '../platform';
import { existingPgliteSnapshot } from './database-templates';
import { withResponseChecks } from './openapi-responses';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';

export type DatabaseKind = 'pglite' | 'postgres';

let postgresReachable: Promise<boolean> | undefined;
export function isPostgresReachable(): Promise<boolean> {
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

export async function adminQuery(statement: string) {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export type TestDatabase = Database & {
  drop(): Promise<void>;
  /** PostgreSQL only: where it is, for a second connection pool (a second app instance). */
  url?: string;
};

/**
 * A fresh, empty, migrated database of the given kind; `drop` removes every trace of it. A PGlite
 * database's maintenance looks at its tables every `maintenanceIntervalMs` (as in production unless set).
 */
export async function createTestDatabase(kind: DatabaseKind, onQuery?: (sql: string) => void, embedded: { maintenanceIntervalMs?: number } = {}): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const database = await openDatabase({ kind: 'pglite', dataDir: null, snapshot: existingPgliteSnapshot(), keepThread: true, onQuery, maintenanceIntervalMs: embedded.maintenanceIntervalMs });
    return { ...database, drop: database.close };
  }
  const name = `siteboard_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const template = inject('postgresTemplate');
  await adminQuery(template ? `create database ${name} template ${template}` : `create database ${name}`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 5, onQuery });
  return {
    ...database,
    url: url.toString(),
    drop: async () => {
      await database.close();
      await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}

/** The app as tests use it: every answer its `inject` gives is checked against the OpenAPI document (test/openapi-responses.ts). */
export async function buildTestApp(options: AppOptions): Promise<App> {
  // The job runner looks for work when told (a job enqueued, `app.jobs.idle()`), not every few
  // seconds: its statements would land in the statement counts of whatever test runs then.
  return withResponseChecks(await buildApp({ jobPollMs: 3_600_000, ...options }));
}

/**
 * Another connection pool (and listening connection) to the same PostgreSQL test database, as a
 * second app instance has; close it before dropping the database.
 */
export function openAnotherConnection(database: TestDatabase, onQuery?: (sql: string) => void): Promise<Database> {
  if (!database.url) throw new Error('Only a PostgreSQL test database can be opened twice.');
  return openDatabase({ kind: 'postgres', url: database.url, poolSize: 5, onQuery });
}

/**
 * Two app instances on one fresh PostgreSQL test database, each with its own connection pool and
 * listening connection: what a load balancer in front of N instances looks like.
 */
export async function startTwoInstances() {
  const database = await createTestDatabase('postgres');
  const secondConnection = await openAnotherConnection(database);
  const appA = await buildTestApp({ database, jwtSecret: TEST_JWT_SECRET });
  const appB = await buildTestApp({ database: secondConnection, jwtSecret: TEST_JWT_SECRET });
  await Promise.all([appA.ready(), appB.ready()]);
  return {
    appA,
    appB,
    async close() {
      await appB.close();
      await secondConnection.close();
      await appA.close();
      await database.drop();
    },
  };
}

export interface TwoInstances {
  appA: App;
  appB: App;
}

/**
 * Runs the suite on two app instances sharing one fresh PostgreSQL database (`startTwoInstances`),
 * started before the suite and closed after it; skipped, loudly, as `describeEachDatabase` skips
 * PostgreSQL. The instances are on `instances` once the suite's own `beforeAll` hooks run.
 */
export function describeTwoInstances(title: string, suite: (instances: TwoInstances) => void) {
  describe(`${title} [postgres]`, async () => {
    const skip = !(await isPostgresReachable());
    const instances = {} as TwoInstances;
    let close: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      if (skip) return;
      const started = await startTwoInstances();
      Object.assign(instances, { appA: started.appA, appB: started.appB });
      close = started.close;
    });
    afterAll(async () => {
      await close?.();
    });
    if (skip) describe.skip('PostgreSQL unreachable', () => {});
    else suite(instances);
  });
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
 * before the suite and dropped after it, with an app built with `appOptions`. PostgreSQL is skipped, loudly, only when unreachable and
 * REQUIRE_POSTGRES is not set.
 */
export function describeEachDatabase(title: string, suite: (ctx: TestContext) => void, appOptions: Partial<AppOptions> = {}) {
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
        ctx.app = await buildTestApp({ ...appOptions, database, jwtSecret: TEST_JWT_SECRET });
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
