import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { buildApp, type App } from '../../app';
import { describeEachDatabase, TEST_JWT_SECRET } from '../../test/build-app';

/** What the app logged, line by line, as a log shipper would read it. */
const lines: Record<string, unknown>[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});
const logger = { level: 'info', stream: logStream };

const PROXY = '127.0.0.1';
const NGINX_ID = '9f2c4e1ab3d84c0f8e6a7b5c3d2e1f00';

const linesOf = (requestId: string) => lines.filter((line) => line.reqId === requestId);

describeEachDatabase(
  'request ids',
  (ctx) => {
    // An instance with a route that fails, to see the error line a failed request writes.
    let failing: App;
    beforeAll(async () => {
      failing = await buildApp({ database: ctx.database, jwtSecret: TEST_JWT_SECRET, logger, trustProxy: PROXY });
      failing.get('/api/test-failure/', async () => {
        throw new Error('the disk is full');
      });
      await failing.ready();
    });
    afterAll(async () => {
      await failing?.close();
    });
    beforeEach(() => {
      lines.length = 0;
    });

    it('gives each request an id, names it in the answer, and puts it on every log line of that request', async () => {
      const first = await ctx.app.inject({ method: 'GET', url: '/api/health/', remoteAddress: '198.51.100.7' });
      const second = await ctx.app.inject({ method: 'GET', url: '/api/health/', remoteAddress: '198.51.100.7' });

      const id = first.headers['x-request-id'] as string;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(second.headers['x-request-id']).not.toBe(id);
      expect(linesOf(id).map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
      expect(lines.filter((line) => line.req !== undefined || line.res !== undefined).every((line) => typeof line.reqId === 'string')).toBe(true);
    });

    it("keeps the id of a trusted proxy in front (nginx's $request_id), so both logs name the same request", async () => {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/health/', remoteAddress: PROXY, headers: { 'x-request-id': NGINX_ID } });

      expect(response.headers['x-request-id']).toBe(NGINX_ID);
      expect(linesOf(NGINX_ID)).toHaveLength(2);
    });

    it("replaces an id from anyone else, and an id that could forge a log line even from the proxy", async () => {
      const fromClient = await ctx.app.inject({ method: 'GET', url: '/api/health/', remoteAddress: '198.51.100.7', headers: { 'x-request-id': NGINX_ID } });
      const forged = await ctx.app.inject({ method: 'GET', url: '/api/health/', remoteAddress: PROXY, headers: { 'x-request-id': 'a" level=error msg="forged' } });
      const tooLong = await ctx.app.inject({ method: 'GET', url: '/api/health/', remoteAddress: PROXY, headers: { 'x-request-id': 'a'.repeat(200) } });

      for (const response of [fromClient, forged, tooLong]) expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(linesOf(NGINX_ID)).toEqual([]);
    });

    it("carries the id on the error line of a failed request, which the answer names too", async () => {
      const response = await failing.inject({ method: 'GET', url: '/api/test-failure/', remoteAddress: PROXY, headers: { 'x-request-id': NGINX_ID } });

      expect(response.statusCode).toBe(500);
      expect(response.headers['x-request-id']).toBe(NGINX_ID);
      const failed = linesOf(NGINX_ID).find((line) => line.msg === 'request failed');
      expect(failed).toMatchObject({ level: 50, err: { message: 'the disk is full' } });
    });
  },
  { logger, trustProxy: PROXY },
);
