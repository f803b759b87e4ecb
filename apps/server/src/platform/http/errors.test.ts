import net from 'node:net';
import type { InjectOptions } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../database/client';
import { callAs, createTeamAndRival, insertWork } from '../../test/work-factories';
import { buildTestApp, createTestDatabase, describeEachDatabase, isPostgresReachable, TEST_JWT_SECRET } from '../../test/build-app';
import { unique } from '../../test/factories';
import { whileRefusingInserts } from '../../test/refuse-inserts';
import type { App } from '../../app';

/** A new company signing up, from its own address (the signup throttle counts per address), in a language when given. */
const signup = (app: App, company: string, remoteAddress: string, language?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/signup/',
    headers: language ? { 'accept-language': language } : {},
    payload: { company_name: company, company_password: 'company secret 42', email: `${unique('admin')}@example.test`, password: 'admin secret 42' },
    remoteAddress,
  });

const logLines: string[] = [];

describeEachDatabase(
  'errors',
  (ctx) => {
    it("logs a failed statement's text and the database's reason, never the values it was given", async () => {
      const poison = unique('Poisoned Company');
      await whileRefusingInserts(ctx.app.db, { table: 'companies', column: 'name', value: poison }, async () => {
        logLines.length = 0;
        const response = await signup(ctx.app, poison, '10.61.0.1');

        expect(response.statusCode).toBe(500);
        expect(response.json()).toEqual({ detail: 'Internal server error.' });
        const log = logLines.join('');
        expect(log).toContain('request failed');
        expect(log).toContain('insert into \\"companies\\"');
        expect(log).toContain('refused for the test');
        expect(log).not.toContain(poison);
        expect(log).not.toContain('$argon2');
      });
    });

    it('answers an address the router cannot read, or an id far too long, as a bad address in the reader’s language, never a 405 that allows the very method', async () => {
      const [team] = await createTeamAndRival(ctx.app);
      await callAs(ctx.app, team.admin, { method: 'PATCH', url: '/api/profile/', payload: { language: 'de' } });
      const longId = '9'.repeat(1_000);
      for (const request of [
        { method: 'GET', url: `/api/projects/${longId}/` },
        { method: 'PATCH', url: `/api/users/${longId}/`, payload: {} },
      ] as const) {
        const response = await callAs(ctx.app, team.admin, request);
        expect(response.statusCode, `${request.method} ${response.body}`).toBe(400);
        expect(response.json().errors.id).toEqual(['Die ID im Pfad muss eine ganze Zahl von 1 bis 2147483647 sein.']);
      }
      // Not an id and too large, both in the same words: said once.
      const ninetyDigits = await callAs(ctx.app, team.admin, { method: 'GET', url: `/api/projects/${'9'.repeat(90)}/` });
      expect(ninetyDigits.json().errors.id).toEqual(['Die ID im Pfad muss eine ganze Zahl von 1 bis 2147483647 sein.']);
      // Not percent-encoding of any character: the router cannot read the path at all (no route, no sign-in).
      const unreadable = await ctx.app.inject({ method: 'PATCH', url: '/api/users/%ED%A0%80/', headers: { 'accept-language': 'de' }, payload: {} });
      expect(unreadable.statusCode).toBe(400);
      expect(unreadable.json()).toEqual({ detail: 'Diese Adresse ist ungültig: Sie enthält eine Prozentkodierung, die kein Zeichen ergibt.' });
      // Worded by the browser's language: a cache must keep each language's apart.
      expect(unreadable.headers).toMatchObject({ vary: 'Accept-Language', 'content-language': 'de', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
      expect(unreadable.headers['x-request-id']).toBeTruthy();
    });

    it("words every validation refusal in the reader's language, zod's own texts included", async () => {
      const [team] = await createTeamAndRival(ctx.app);
      const work = await insertWork(ctx.app.db, team);
      await callAs(ctx.app, team.admin, { method: 'PATCH', url: '/api/profile/', payload: { language: 'de' } });
      const refused = async (request: InjectOptions) => {
        const response = await callAs(ctx.app, team.admin, request);
        expect(response.statusCode, response.body).toBe(400);
        return response.json() as { detail: string; errors: Record<string, string[]> };
      };
      // A parameter given twice, a value of the wrong kind, a body that is not an object, a schema's own text.
      expect((await refused({ method: 'GET', url: '/api/projects/?status=ongoing&status=planned' })).errors.status).toEqual(['Diesen Parameter nur einmal angeben.']);
      expect((await refused({ method: 'PATCH', url: `/api/projects/${work.projectId}/`, payload: { description: 5 } })).errors.description).toEqual(['Muss ein Text sein.']);
      expect((await refused({ method: 'PATCH', url: '/api/notifications/mark-read/', payload: { ids: 'all' } })).errors.ids).toEqual(['ids muss eine Liste von Benachrichtigungs-IDs sein.']);
      expect((await refused({ method: 'GET', url: '/api/projects/?expand=tasks' })).errors.expand).toEqual(['expand muss major_tasks sein.']);
      const notAnObject = await refused({ method: 'PATCH', url: `/api/projects/${work.projectId}/`, payload: '"just a string"', headers: { 'content-type': 'application/json' } });
      expect(notAnObject.detail).toBe('Die Anfrage ist ungültig (body): Muss ein Objekt sein.');
    });

    // A restart or a failover of PostgreSQL under a write: the app answers 503 (the offline app's
    // queue sends it again) instead of ending the process with every other request.
    it('answers a request whose database connection ends under it with 503, and serves the next', async ({ skip }) => {
      if (ctx.kind !== 'postgres') skip();
      const lost = unique('Lost Company');
      const response = await whileRefusingInserts(ctx.app.db, { table: 'companies', column: 'name', value: lost, endConnection: true }, () => signup(ctx.app, lost, '10.61.0.2', 'de'));

      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('1');
      expect(response.json()).toEqual({ detail: 'Die Verbindung zur Datenbank ist abgebrochen. Versuchen Sie es gleich noch einmal.' });
      expect((await signup(ctx.app, lost, '10.61.0.2', 'de')).statusCode).toBe(201);
    });

    // Two changes crossing (a deadlock): the database undoes one of them. Its sender is told to try
    // again (the offline queue does, after Retry-After), not shown a 500 as if it were refused for good.
    it('answers a write the database undid for crossing another with 503 and Retry-After', async () => {
      const crossed = unique('Crossed Company');
      const response = await whileRefusingInserts(ctx.app.db, { table: 'companies', column: 'name', value: crossed, sqlstate: '40P01' }, () => signup(ctx.app, crossed, '10.61.0.3', 'fr'));

      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('1');
      expect(response.json()).toEqual({ detail: "Quelqu’un a modifié la même chose au même moment, et rien n’a été enregistré. Réessayez." });
      expect((await signup(ctx.app, crossed, '10.61.0.3')).statusCode).toBe(201);
    });
  },
  { logger: { level: 'error', stream: { write: (line: string) => void logLines.push(line) } } },
);

// PostgreSQL down for a moment (a restart, a network gone): before, the requests that met it got
// 500, which the offline queue takes for a refusal and marks the write failed for good.
describe('errors [postgres, through a proxy]', () => {
  it('answers 503 while the database cannot be reached, and serves again once it can', async ({ skip }) => {
    if (!(await isPostgresReachable())) skip();
    const database = await createTestDatabase('postgres');
    const url = database.url ?? '';
    const upstream = new URL(url);
    const links = new Set<net.Socket>();
    const proxy = net.createServer((client) => {
      const server = net.connect(Number(upstream.port || 5432), upstream.hostname);
      for (const socket of [client, server]) socket.on('error', () => {});
      client.pipe(server).pipe(client);
      links.add(client);
    });
    const listen = (port: number) => new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
    await listen(0);
    const port = (proxy.address() as net.AddressInfo).port;
    const proxied = new URL(url);
    proxied.host = `127.0.0.1:${port}`;
    const throughProxy = await openDatabase({ kind: 'postgres', url: proxied.toString(), poolSize: 2 });
    const app = await buildTestApp({ database: throughProxy, jwtSecret: TEST_JWT_SECRET });
    const signupThroughProxy = () => signup(app, unique('Proxied Company'), '10.61.0.3', 'es');
    const open = () => throughProxy.stats().pools.reduce((sum, pool) => sum + pool.open, 0);
    try {
      expect((await signupThroughProxy()).statusCode).toBe(201);

      // The database goes away: no connection is taken any more, the ones open are reset.
      const closed = new Promise((resolve) => proxy.close(resolve));
      for (const link of links) link.resetAndDestroy();
      await closed;
      await vi.waitFor(() => expect(open()).toBe(0));
      const refused = await signupThroughProxy();

      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json()).toEqual({ detail: 'Se perdió la conexión con la base de datos. Vuelve a intentarlo en un momento.' });
      await listen(port);
      expect((await signupThroughProxy()).statusCode).toBe(201);
    } finally {
      await app.close();
      await throughProxy.close();
      proxy.close();
      await database.drop();
    }
  });
});

describe('errors [a client that goes away]', () => {
  it('logs an upload its client abandoned mid-file as information, not as a failure', async () => {
    const lines: string[] = [];
    const database = await createTestDatabase('pglite');
    const app = await buildTestApp({ database, jwtSecret: TEST_JWT_SECRET, logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } } });
    try {
      const [team] = await createTeamAndRival(app);
      const work = await insertWork(app.db, team);
      const { port } = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
      const boundary = 'gone-boundary';
      await new Promise<void>((resolve) => {
        const socket = net.connect(Number(port), '127.0.0.1', () => {
          socket.write(
            `POST /api/projects/${work.projectId}/sheets/ HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${team.manager.access}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 5000000\r\n\r\n`,
          );
          socket.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="plan.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7`);
          socket.write(Buffer.alloc(100_000, 0x20), () => setImmediate(() => socket.destroy()));
        });
        socket.on('close', () => resolve());
      });
      // Before, "request failed" at error level with the socket's "aborted": an operator's alarm for every phone that lost its signal mid-upload.
      await vi.waitFor(() => expect(lines.join('')).toContain('the client went away before its upload was whole'), { timeout: 10_000 });
      expect(lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((entry) => entry.level >= 40)).toEqual([]);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
