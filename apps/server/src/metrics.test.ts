import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enqueueJob, serveMetrics } from './platform';
import { describeEachDatabase } from './test/build-app';
import { connectLive, listenLocally, livePath, type TestLiveClient } from './test/live-client';
import { sampleOf, scrape } from './test/prometheus';
import { callAs, createTeam, insertWork, type Team } from './test/work-factories';

/** Polls until `check` passes (a scrape shows what just happened), or fails with its last assertion. */
async function eventually(check: () => Promise<void>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

describeEachDatabase('metrics on their own port', (ctx) => {
  let metricsUrl: string;
  let closeMetrics: () => Promise<void>;
  let appPort: number;
  let team: Team;
  const sockets: TestLiveClient[] = [];

  beforeAll(async () => {
    await listenLocally(ctx.app);
    appPort = (ctx.app.server.address() as AddressInfo).port;
    const served = await serveMetrics(ctx.app.metrics, { port: 0, host: '127.0.0.1', log: ctx.app.log });
    metricsUrl = `http://127.0.0.1:${served.port}/metrics`;
    closeMetrics = served.close;
    team = await createTeam(ctx.app);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await closeMetrics?.();
  });

  it('times requests by route pattern and status, never by the raw URL', async () => {
    expect((await callAs(ctx.app, team.admin, { method: 'GET', url: '/api/projects/987654/' })).statusCode).toBe(404);
    expect((await fetch(`http://127.0.0.1:${appPort}/api/health/`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${appPort}/api/no-such-thing/123456/`)).status).toBe(404);

    const metrics = await scrape(metricsUrl);

    const durations = metrics.get('siteboard_http_request_duration_seconds')!;
    expect(durations.type).toBe('histogram');
    expect(sampleOf(metrics, 'siteboard_http_request_duration_seconds', { method: 'GET', route: '/api/projects/:id/', status_code: '404' })?.count).toBe(1);
    expect(sampleOf(metrics, 'siteboard_http_request_duration_seconds', { method: 'GET', route: '/api/health/', status_code: '200' })?.count).toBeGreaterThanOrEqual(1);
    expect(sampleOf(metrics, 'siteboard_http_request_duration_seconds', { method: 'GET', route: 'unmatched', status_code: '404' })?.count).toBeGreaterThanOrEqual(1);
    const routes = durations.samples.map((sample) => sample.labels.route);
    expect(routes.filter((route) => /987654|123456/.test(route!))).toEqual([]);
  });

  it('counts a request in flight until it is answered or dropped', async () => {
    // Headers sent, the body promised and never sent: the request is received and not yet answered.
    const socket = net.connect(appPort, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('POST /api/token/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email"');

    await eventually(async () => expect(sampleOf(await scrape(metricsUrl), 'siteboard_http_requests_in_flight')?.value).toBe(1));
    socket.destroy();
    await eventually(async () => expect(sampleOf(await scrape(metricsUrl), 'siteboard_http_requests_in_flight')?.value).toBe(0));
  });

  it('counts live connections and the notifications pushed to them', async () => {
    const before = await scrape(metricsUrl);
    const pushedBefore = sampleOf(before, 'siteboard_notifications_pushed_total')?.value ?? 0;
    const socket = await connectLive(`ws://127.0.0.1:${appPort}`, livePath(team.member, team.member.access));
    sockets.push(socket);
    expect(sampleOf(await scrape(metricsUrl), 'siteboard_websocket_connections')?.value).toBe(1);

    const work = await insertWork(ctx.app.db, team, { status: 'pending_approval' });
    expect((await callAs(ctx.app, team.manager, { method: 'PATCH', url: `/api/subtasks/${work.subtaskId}/`, payload: { status: 'completed' } })).statusCode).toBe(200);
    await socket.next();

    expect(sampleOf(await scrape(metricsUrl), 'siteboard_notifications_pushed_total')?.value).toBe(pushedBefore + 1);
    socket.close();
    await socket.closed;
    await eventually(async () => expect(sampleOf(await scrape(metricsUrl), 'siteboard_websocket_connections')?.value).toBe(0));
  });

  it("reads the database pools' connections in use, open and waiting", async () => {
    const metrics = await scrape(metricsUrl);

    const pools = ctx.kind === 'postgres' ? ['main', 'live'] : ['main'];
    expect(metrics.get('siteboard_database_pool_connections_open')!.samples.map((sample) => sample.labels.pool).sort()).toEqual(pools.sort());
    expect(sampleOf(metrics, 'siteboard_database_pool_connections_open', { pool: 'main' })!.value).toBeGreaterThanOrEqual(1);
    // Nothing else runs while the scrape is answered.
    expect(sampleOf(metrics, 'siteboard_database_pool_connections_in_use', { pool: 'main' })!.value).toBe(0);
    expect(sampleOf(metrics, 'siteboard_database_pool_waiting', { pool: 'main' })!.value).toBe(0);
  });

  it('says the database answers, is fully migrated and its change feed is heard', async () => {
    const metrics = await scrape(metricsUrl);

    for (const check of ['database', 'migrations', 'changes']) expect(sampleOf(metrics, 'siteboard_database_up', { check })?.value).toBe(1);
  });

  it("counts the embedded database's maintenance rounds (PGlite only)", async () => {
    if (ctx.kind === 'postgres') {
      expect((await scrape(metricsUrl)).has('siteboard_embedded_maintenance_runs_total')).toBe(false);
      return;
    }
    // The tables the test wrote to were never analyzed: the first rounds (every 2 s) analyze them.
    await eventually(async () => {
      const metrics = await scrape(metricsUrl);
      expect(sampleOf(metrics, 'siteboard_embedded_maintenance_runs_total')!.value).toBeGreaterThanOrEqual(1);
      expect(sampleOf(metrics, 'siteboard_embedded_maintenance_statements_total')!.value).toBeGreaterThanOrEqual(1);
      expect(sampleOf(metrics, 'siteboard_embedded_maintenance_failures_total')!.value).toBe(0);
    });
  });

  it('names every queue this instance works on from the start, at zero while it holds no job', async () => {
    const metrics = await scrape(metricsUrl);

    // No drawing was uploaded here: an alert on failed renders has a series to watch before the first one.
    for (const name of ['siteboard_jobs_queued', 'siteboard_jobs_running', 'siteboard_jobs_failed', 'siteboard_jobs_oldest_wait_seconds']) {
      expect(sampleOf(metrics, name, { queue: 'sheets.render' })?.value, name).toBe(0);
    }
  });

  it("reads the job queues' depth and the oldest due job's age, by queue", async () => {
    // A queue no instance works on: its job stays queued, and waits from the moment it was due.
    const queue = `metrics-probe-${ctx.kind}`;
    await enqueueJob(ctx.app.db, queue, {}, { runAt: new Date(Date.now() - 60_000) });
    await enqueueJob(ctx.app.db, queue, {});

    const metrics = await scrape(metricsUrl);

    expect(sampleOf(metrics, 'siteboard_jobs_queued', { queue })?.value).toBe(2);
    expect(sampleOf(metrics, 'siteboard_jobs_running', { queue })?.value).toBe(0);
    expect(sampleOf(metrics, 'siteboard_jobs_failed', { queue })?.value).toBe(0);
    expect(sampleOf(metrics, 'siteboard_jobs_oldest_wait_seconds', { queue })?.value).toBeGreaterThanOrEqual(59);
  });

  it("reports the process's memory and event-loop lag", async () => {
    const metrics = await scrape(metricsUrl);

    expect(sampleOf(metrics, 'process_resident_memory_bytes')!.value).toBeGreaterThan(10_000_000);
    expect(sampleOf(metrics, 'nodejs_heap_size_used_bytes')!.value).toBeGreaterThan(0);
    expect(sampleOf(metrics, 'nodejs_eventloop_lag_seconds')!.value).toBeGreaterThanOrEqual(0);
    expect(metrics.get('nodejs_eventloop_lag_p99_seconds')?.type).toBe('gauge');
  });

  it('takes metrics added by other parts in a few lines, and a failing one leaves the rest of the scrape', async () => {
    let depth = 3;
    ctx.app.metrics.observe({
      type: 'gauge',
      name: `siteboard_test_queue_depth_${ctx.kind}`,
      help: 'Jobs waiting, by queue.',
      labelNames: ['queue'],
      read: async () => [{ labels: { queue: 'mail' }, value: depth }],
    });
    ctx.app.metrics.observe({
      type: 'gauge',
      name: `siteboard_test_unreadable_${ctx.kind}`,
      help: 'A metric whose source is down.',
      read: async () => {
        throw new Error('the source is down');
      },
    });

    expect(sampleOf(await scrape(metricsUrl), `siteboard_test_queue_depth_${ctx.kind}`, { queue: 'mail' })?.value).toBe(3);
    depth = 0;
    const metrics = await scrape(metricsUrl);
    expect(sampleOf(metrics, `siteboard_test_queue_depth_${ctx.kind}`, { queue: 'mail' })?.value).toBe(0);
    expect(sampleOf(metrics, `siteboard_test_unreadable_${ctx.kind}`)?.value).toBeNaN();
    expect(sampleOf(metrics, 'siteboard_http_requests_in_flight')?.value).toBe(0);
  });

  it('are not served on the public port', async () => {
    const response = await fetch(`http://127.0.0.1:${appPort}/metrics`);

    expect(await response.text()).not.toContain('siteboard_http_request_duration_seconds');
  });
});
