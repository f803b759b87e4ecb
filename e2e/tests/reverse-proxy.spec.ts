import { expect, request as playwrightRequest, test } from '@playwright/test';
import http from 'node:http';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { apiSignIn, assignWork } from '../api-helpers';
import { DEMO, demoLabel, readAllNotifications, signInThroughScreens } from '../fixtures';
import { parseAccessLine, rollingRestart, signInAdmin, stackPorts, startProxyStack, steadyTraffic, type Instance } from '../proxy-stack';

/**
 * deploy/nginx.conf really carrying SiteBoard's traffic: Debian's nginx with that file in front of
 * two compiled instances on one PostgreSQL database (e2e/proxy-stack.ts), started once for these
 * journeys, which run in order on it.
 */
const ports = stackPorts(Number(process.env.E2E_PROXY_PORT ?? 4545));
let stack: Awaited<ReturnType<typeof startProxyStack>>;

test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  test.setTimeout(180_000);
  stack = await startProxyStack(ports);
});
test.afterAll(async () => {
  await stack?.stop();
});

/** The number of live connections an instance holds, as its metrics say. */
async function liveConnections(instance: Instance): Promise<number> {
  return Number(/^siteboard_websocket_connections (\d+)$/m.exec(await instance.metricsText())?.[1] ?? Number.NaN);
}

/** One request through the proxy from a local address of our choosing, the whole answer read. */
function requestFrom(localAddress: string, options: { method?: string; path: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const outgoing = http.request({ host: '127.0.0.1', port: ports.nginx, localAddress, method: options.method ?? 'GET', path: options.path, headers: options.headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

test('signs in through the proxy, and a notification made on one instance reaches the live connection held by the other', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: stack.proxy.url });
  const member = await context.newPage();
  await signInThroughScreens(member, 'team_member');
  await readAllNotifications(member);

  // nginx upgraded the page's live connection to one instance or the other: the metrics say which.
  let holder: Instance | undefined;
  await expect
    .poll(async () => {
      const counts = await Promise.all(stack.instances.map(liveConnections));
      holder = stack.instances[counts.indexOf(1)];
      return counts.reduce((sum, count) => sum + count, 0);
    })
    .toBe(1);
  const other = stack.instances.find((instance) => instance !== holder)!;

  // The manager works on the other instance directly: the notification is written there.
  const straight = await playwrightRequest.newContext({ baseURL: other.origin });
  await assignWork(await apiSignIn(straight, 'manager'), `Through the proxy ${Date.now().toString(36)}`, [{ name: 'Check the anchors', assignee: 'member1@example.com', dueInDays: 2 }]);
  await straight.dispose();

  await expect(member.getByTestId('notification-badge')).toHaveText('1');
  await context.close();
});

test('carries a photo of several MB to the app, and leaves the size limit to the app', async () => {
  const { token } = await signInAdmin(stack.proxy.url);
  const auth = { authorization: `Bearer ${token}` };
  const subtasks = (await (await fetch(`${stack.proxy.url}/api/subtasks/?limit=100`, { headers: auth })).json()) as { id: number; major_task: { project: { status: string } } }[];
  const subtask = subtasks.find((candidate) => candidate.major_task.project.status !== 'completed')!;
  // A photo larger than nginx's own default limit (1 MB).
  const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 50 } } })
    .jpeg({ quality: 92 })
    .toBuffer();
  expect(photo.length).toBeGreaterThan(1024 * 1024);
  const upload = (bytes: Uint8Array<ArrayBuffer>, name: string) => {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'image/jpeg' }), name);
    return fetch(`${stack.proxy.url}/api/subtasks/${subtask.id}/attachments/`, { method: 'POST', headers: auth, body: form });
  };

  const uploaded = await upload(new Uint8Array(photo), 'facade.jpg');

  expect(uploaded.status).toBe(201);
  const { url } = (await uploaded.json()) as { url: string };
  expect((await fetch(`${stack.proxy.url}${url}`, { headers: auth })).status).toBe(200);
  // Over the app's 10 MB: refused by the app in its own words, not by nginx.
  const tooLarge = await upload(new Uint8Array(11 * 1024 * 1024), 'huge.jpg');
  expect(tooLarge.status).toBe(413);
  expect(await tooLarge.json()).toEqual({ detail: 'The photo is larger than 10 MB.', errors: { file: ['The photo is larger than 10 MB.'] } });
});

test('the app logs and throttles the address the client really has, never one it wrote itself', async () => {
  const answer = await requestFrom('127.0.0.2', { path: '/api/health/', headers: { 'x-forwarded-for': '203.0.113.9', 'x-request-id': 'chosen-by-the-client' } });

  // One id for the request everywhere: nginx's, in its answer, its access log and the instance's log line.
  const requestId = answer.headers['x-request-id'] as string;
  expect(requestId).toMatch(/^[0-9a-f]{32}$/);
  const accessLine = stack.proxy.accessLog().find((line) => parseAccessLine(line).requestId === requestId)!;
  expect(accessLine.startsWith('127.0.0.2 ')).toBe(true);
  let logged: Record<string, unknown> | undefined;
  await expect.poll(() => (logged = stack.instances.flatMap((instance) => instance.log()).find((line) => line.reqId === requestId && line.req !== undefined))).toBeTruthy();
  expect((logged!.req as { remoteAddress: string }).remoteAddress).toBe('127.0.0.2');

  // Five wrong company passwords from 127.0.0.2 (each claiming another address), whichever instance
  // answers each: the sixth is refused. 127.0.0.3 is still let through.
  const guess = (from: string, claimed: string) =>
    requestFrom(from, {
      method: 'POST',
      path: '/api/verify-company-password/',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': claimed },
      body: JSON.stringify({ company_name: 'SiteBoard Demo', password: 'not the password' }),
    });
  const statuses = [];
  for (let attempt = 1; attempt <= 6; attempt++) statuses.push((await guess('127.0.0.2', `198.51.100.${attempt}`)).status);
  expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  expect((await guess('127.0.0.3', '198.51.100.7')).status).toBe(400);
});

test("nginx's access log names every request without the secrets links carry", async () => {
  const paths = ['/api/calendar/FeedSecret4Kq9.ics', '/reset-password?token=ResetSecret7Zx&lang=de', '/api/email/unsubscribe/?token=UnsubSecret3Pw', '/api/projects/?status=ongoing&limit=5'];
  const ids: string[] = [];
  for (const path of paths) ids.push((await requestFrom('127.0.0.1', { path })).headers['x-request-id'] as string);
  // nginx writes a request's line once its answer is sent: the last may come a moment after it.
  const linesOf = () => ids.map((id) => stack.proxy.accessLog().find((line) => parseAccessLine(line).requestId === id));
  await expect.poll(() => linesOf().every(Boolean)).toBe(true);
  expect(linesOf().map((line) => /"GET (\S+) HTTP/.exec(line!)?.[1])).toEqual([
    '/api/calendar/[redacted]',
    '/reset-password?token=[redacted]&lang=de',
    '/api/email/unsubscribe/?token=[redacted]',
    '/api/projects/?status=ongoing&limit=5',
  ]);
  expect(stack.proxy.accessLog().join('\n')).not.toMatch(/FeedSecret|ResetSecret|UnsubSecret/);
});

test('leaves compression to the app and keeps hashed assets', async () => {
  const spec = await requestFrom('127.0.0.1', { path: '/api/openapi.json', headers: { 'accept-encoding': 'br, gzip' } });
  expect(spec.headers['content-encoding']).toBe('br');
  expect(JSON.parse(zlib.brotliDecompressSync(spec.body).toString()).openapi).toMatch(/^3\./);

  const page = (await requestFrom('127.0.0.1', { path: '/' })).body.toString();
  const script = /src="(\/assets\/[^"]+\.js)"/.exec(page)![1]!;
  const first = await requestFrom('127.0.0.1', { path: script, headers: { 'accept-encoding': 'br' } });
  const second = await requestFrom('127.0.0.1', { path: script, headers: { 'accept-encoding': 'br' } });
  expect(first.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(first.headers['content-encoding']).toBe('br');
  expect(second.headers['x-cache-status']).toBe('HIT');
  expect(second.body.equals(first.body)).toBe(true);
});

test("while the database is away every request gets the app's 503, and the first after it is back is answered", async () => {
  const { token } = await signInAdmin(stack.proxy.url);
  const projects = () => requestFrom('127.0.0.1', { path: '/api/projects/?limit=5', headers: { authorization: `Bearer ${token}` } });
  expect((await projects()).status).toBe(200);

  stack.database.cut();
  // Both instances share the database: each answers 503 in its words (nothing was changed, try
  // again), and a person trying again at once gets the same, never nginx's own 502.
  for (let attempt = 0; attempt < 4; attempt++) {
    const answer = await projects();
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body.toString())).toEqual({ detail: 'The connection to the database was lost. Try again in a moment.' });
  }
  stack.database.mend();

  // No instance was counted down for the database's absence: the very next request is answered.
  expect((await projects()).status).toBe(200);
  expect((await projects()).status).toBe(200);
  // Both listen to the change feed again before the journeys after this one.
  for (const instance of stack.instances) await expect.poll(async () => (await fetch(`${instance.origin}/api/ready/`)).status, { timeout: 20_000 }).toBe(200);
});

test('a rolling restart under steady traffic fails no request', async () => {
  test.setTimeout(180_000);
  const { token, managerId } = await signInAdmin(stack.proxy.url);
  const traffic = steadyTraffic(stack.proxy.url, token, managerId);
  await expect.poll(() => traffic.sent()).toBeGreaterThan(20);

  const exits = await rollingRestart(stack.proxy, stack.instances);

  await traffic.stop();
  expect(exits).toEqual([
    { code: 0, signal: null },
    { code: 0, signal: null },
  ]);
  expect(traffic.failures()).toEqual([]);
  expect(traffic.sent()).toBeGreaterThan(100);
});

test('a write whose instance dies right after committing it acts once: nginx sends it to the other, which answers as the first would have', async ({ browser }) => {
  test.setTimeout(120_000);
  // The first instance comes back killing itself (SIGKILL) right after the commit of every keyed
  // write: the commit is in the database, the answer never leaves. nginx sends the POST to the
  // other instance (proxy_next_upstream … non_idempotent), as it would after a crash or an OOM kill.
  // The admin's language is their own choice first: a first sign-in gives the browser's to the
  // profile, a keyed write that would reach the crash before any project does.
  const admin = await signInAdmin(stack.proxy.url);
  const chosen = await fetch(`${stack.proxy.url}/api/profile/`, { method: 'PATCH', headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ language: 'en' }) });
  expect(chosen.status).toBe(200);
  await stack.instances[0]!.stop();
  const crashing = stack.instances[0]!.withEnv({ IDEMPOTENCY_CRASH_AT: 'after-commit' });
  stack.instances[0] = crashing;
  await crashing.start();
  const logMark = stack.proxy.accessLog().length;
  const context = await browser.newContext({ baseURL: stack.proxy.url });
  const page = await context.newPage();
  await signInThroughScreens(page, 'admin');

  // nginx takes turns: within a few projects one reaches the crashing instance.
  const names: string[] = [];
  for (let turn = 0; turn < 6 && !crashing.ended; turn++) {
    const name = `Crash Yard ${turn} ${Date.now().toString(36)}`;
    await page.getByRole('link', { name: 'Create Project' }).click();
    await page.getByLabel('Project Name').fill(name);
    await page.getByLabel('Start Date').fill('2031-03-01');
    await page.getByLabel('End Date').fill('2031-09-30');
    await page.getByLabel('Manager', { exact: true }).selectOption({ label: demoLabel(DEMO.accounts.manager) });
    await page.getByRole('button', { name: 'Create Project' }).click();
    // The admin sees the project made, whichever instance answered.
    await expect(page).toHaveURL(/\/admin$/);
    names.push(name);
  }
  // (A write sent without a key would not have reached the crash: the app keys every write.)
  expect(crashing.ended, 'a project reached the crashing instance').toBe(true);
  expect(await crashing.exit()).toEqual({ code: null, signal: 'SIGKILL' });
  await context.close();

  // Each project is there once: the one whose instance died was not made again by the other.
  const { token } = await signInAdmin(stack.proxy.url);
  for (const name of names) {
    const found = await fetch(`${stack.proxy.url}/api/projects/?search=${encodeURIComponent(name)}`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await found.json()) as { name: string }[]).filter((project) => project.name === name), name).toHaveLength(1);
  }
  // The access log shows the one POST nginx asked both instances for: the first's connection ended, the second answered 201.
  const resent = stack.proxy
    .accessLog()
    .slice(logMark)
    .filter((line) => line.includes('"POST /api/projects/ '))
    .map(parseAccessLine)
    .filter((line) => line.upstreams.length === 2);
  expect(resent.map((line) => [line.status, line.upstreamStatuses])).toEqual([[201, ['502', '201']]]);
});
