import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { buildApp } from '../../app';
import { describeEachDatabase, TEST_JWT_SECRET } from '../../test/build-app';

describeEachDatabase('health', (ctx) => {
  it('answers ok when the database is reachable', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/health/' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('answers liveness without asking the database', async () => {
    ctx.queries.length = 0;
    const response = await ctx.app.inject({ method: 'GET', url: '/api/health/live/' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    expect(ctx.queries).toEqual([]);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/does-not-exist/' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not found.' });
  });
});

describeEachDatabase('readiness', (ctx) => {
  const ready = { status: 'ready', database: 'ok', migrations: 'applied', changes: 'listening', draining: false };

  it('answers 200 when the database answers, has every migration and the change feed is heard', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/ready/' });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(ready);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers 503 while the newest migration is missing', async () => {
    const [newest] = rowsOf<{ id: number; hash: string; created_at: string }>(
      await ctx.app.db.execute(sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations) returning id, hash, created_at`),
    );
    try {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/ready/' });

      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ ...ready, status: 'not_ready', migrations: 'pending' });
    } finally {
      await ctx.app.db.execute(sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${newest!.id}, ${newest!.hash}, ${newest!.created_at})`);
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/api/ready/' })).statusCode).toBe(200);
  });

  it('answers 503 while the change feed is not heard, and 200 again once it is back (PostgreSQL)', async (test) => {
    // PGlite's feed is the database's own session: it is lost only with the database.
    if (ctx.kind === 'pglite') test.skip();
    await ctx.app.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'siteboard-listener' and datname = current_database()`);
    await until(() => !ctx.database.changes.listening);

    const response = await ctx.app.inject({ method: 'GET', url: '/api/ready/' });

    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ ...ready, status: 'not_ready', changes: 'disconnected' });
    await until(() => ctx.database.changes.listening);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/ready/' })).statusCode).toBe(200);
  });

  it('answers 503 from the moment a drain begins, on a connection made just before', async () => {
    // A second instance on the same database, since draining ends with it closed.
    const instance = await buildApp({ database: ctx.database, jwtSecret: TEST_JWT_SECRET });
    await instance.listen({ port: 0, host: '127.0.0.1' });
    const { port } = instance.server.address() as AddressInfo;
    // A client (a proxy's health check) connected just before the drain: the listener stays open for it.
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));

    const drained = instance.drain();
    const answer = await rawGet(socket, '/api/ready/');

    expect(answer).toMatch(/^HTTP\/1\.1 503 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ ...ready, status: 'not_ready', draining: true });
    await drained;
  });
});

function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}

async function until(condition: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('the condition did not come true in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** One GET on a raw connection: the whole answer as text, once the server closes the connection. */
function rawGet(socket: net.Socket, path: string): Promise<string> {
  return new Promise((resolve) => {
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
  });
}
