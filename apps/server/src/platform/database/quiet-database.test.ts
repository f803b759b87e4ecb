import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app';
import { createTestDatabase, isPostgresReachable, TEST_JWT_SECRET, buildTestApp, type TestDatabase } from '../../test/build-app';
import { startDatabaseHop, type DatabaseHop } from '../../test/database-hop';
import { createCompany, injectAs, loginAs } from '../../test/factories';
import { CONNECTION_LOST } from '../http/errors';
import { openDatabase, type Database } from './client';
import { createListener } from './listener';
import { DATABASE_CHECK_MS } from './timeouts';

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('the condition did not come true in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** How long a call took, with what it answered. */
async function timed<T>(call: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await call();
  return { ms: performance.now() - start, value };
}

// The waits, shortened from production's (5 s to connect, 30 s for an answer, 10 s between the listener's questions).
const timeouts = { connectMs: 800, answerMs: 1_500, heartbeatMs: 300 };

describe('a PostgreSQL that goes quiet under a running server [postgres]', async () => {
  const skip = !(await isPostgresReachable());
  let created: TestDatabase;
  let hop: DatabaseHop;
  let database: Database;
  let app: App;
  let access: string;

  beforeAll(async () => {
    if (skip) return;
    created = await createTestDatabase('postgres');
    hop = await startDatabaseHop(created.url!);
    database = await openDatabase({ kind: 'postgres', url: hop.url, poolSize: 3, timeouts, log: { warn: () => {}, error: () => {} } });
    app = await buildTestApp({ database, jwtSecret: TEST_JWT_SECRET });
    const company = await createCompany(app.db);
    access = (await loginAs(app, company.admin)).access;
  });

  afterAll(async () => {
    hop?.mend();
    await app?.close();
    await database?.close();
    await hop?.close();
    await created?.drop();
  });

  const projects = () => injectAs(app, access, { method: 'GET', url: '/api/projects/' });

  it.skipIf(skip)('readiness says the database is unreachable within its check time, not when the network gives up', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/ready/' })).statusCode).toBe(200);
    hop.goQuiet();

    const { ms, value: response } = await timed(() => app.inject({ method: 'GET', url: '/api/ready/' }));

    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ status: 'not_ready', database: 'unreachable', migrations: 'unknown' });
    expect(ms).toBeLessThan(DATABASE_CHECK_MS + 1_000);
  });

  it.skipIf(skip)('a read answers 503 with "try again" once its statement goes unanswered, and so does the next one', async () => {
    const first = await timed(projects);
    const second = await timed(projects);

    for (const { ms, value: response } of [first, second]) {
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ detail: CONNECTION_LOST });
      expect(response.headers['retry-after']).toBe('1');
      // The unanswered statement, or a new connection that never opens: each bounded, never the operating system's quarter of an hour.
      expect(ms).toBeLessThan(timeouts.answerMs + timeouts.connectMs + 1_000);
    }
  });

  it.skipIf(skip)('the change feed is known lost, and a metrics scrape still answers', async () => {
    await until(() => !database.changes.listening);

    const { ms, value: text } = await timed(() => app.metrics.text());

    // What reads the database says nothing rather than a stale number; the rest is all there.
    expect(text).toMatch(/^# TYPE siteboard_jobs_queued gauge$/m);
    expect(text).not.toMatch(/^siteboard_jobs_queued\{/m);
    expect(text).toMatch(/^siteboard_websocket_connections 0$/m);
    // The outage itself is a number an alert can fire on.
    expect(text).toMatch(/^siteboard_database_up\{check="database"\} 0$/m);
    expect(text).toMatch(/^siteboard_database_up\{check="changes"\} 0$/m);
    expect(ms).toBeLessThan(DATABASE_CHECK_MS + 1_000);
  });

  it.skipIf(skip)('once the database speaks again, reads, readiness and the change feed come back on their own', async () => {
    hop.mend();

    await until(async () => (await projects()).statusCode === 200);
    await until(() => database.changes.listening);
    const ready = await app.inject({ method: 'GET', url: '/api/ready/' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', database: 'ok', changes: 'listening' });
    const text = await app.metrics.text();
    for (const check of ['database', 'migrations', 'changes']) expect(text).toMatch(new RegExp(`^siteboard_database_up\\{check="${check}"\\} 1$`, 'm'));
  });
});

describe('the listening connection on a PostgreSQL that goes quiet after its login [postgres]', async () => {
  const skip = !(await isPostgresReachable());
  let created: TestDatabase;
  let hop: DatabaseHop;

  beforeAll(async () => {
    if (skip) return;
    created = await createTestDatabase('postgres');
    hop = await startDatabaseHop(created.url!);
  });

  afterAll(async () => {
    hop?.mend();
    await hop?.close();
    await created?.drop();
  });

  it.skipIf(skip)('gives a LISTEN up that gets no answer, and listens again once the database speaks', async () => {
    // No heartbeat in this test's time: only the LISTEN's own bound can end the wait.
    const listener = createListener(hop.url, { ...timeouts, heartbeatMs: 60_000 }, { warn: () => {}, error: () => {} });
    try {
      await listener.listen('quiet_first', () => {});
      hop.goQuiet();

      const { ms, value: outcome } = await timed(() => listener.listen('quiet_second', () => {}).then(() => 'listening', (error: Error) => error.message));

      expect(outcome).not.toBe('listening');
      expect(ms).toBeLessThan(timeouts.connectMs + 1_000);
      hop.mend();
      // Not held by the attempt that was given up: a new connection answers.
      const heard: string[] = [];
      await until(() =>
        listener.listen('quiet_third', (payload) => heard.push(payload)).then(
          () => true,
          () => false,
        ),
      );
      await listener.notify('quiet_third', 'back');
      await until(() => heard.includes('back'));
    } finally {
      await listener.close();
    }
  });
});
