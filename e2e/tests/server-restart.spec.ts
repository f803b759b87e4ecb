import { expect, request as playwrightRequest, test, type Page } from '@playwright/test';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assignWork, apiSignIn } from '../api-helpers';
import { readAllNotifications, signIn } from '../fixtures';

/**
 * The server is restarted while people are signed in: their pages stay, the live connection comes
 * back by itself, and the next notification still arrives. This test runs its own server (the
 * shared one cannot be restarted under the other journeys) on its own embedded database.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const port = Number(process.env.E2E_RESTART_PORT ?? 4196);
const baseURL = `http://127.0.0.1:${port}`;

let dataDir: string;
let server: ChildProcess | undefined;

const serverEnv = () => ({
  ...process.env,
  DATA_DIR: dataDir,
  PORT: String(port),
  LOG_LEVEL: 'warn',
  JWT_SECRET: 'restart-test-secret-that-is-long-enough-for-hs256',
});

async function startServer() {
  // The compiled server, as npm start runs it (npm test builds it before the journeys).
  server = spawn(process.execPath, ['apps/server/dist/server.js'], { cwd: repoRoot, env: serverEnv(), stdio: 'ignore' });
  await expect
    .poll(async () => fetch(`${baseURL}/api/health/`).then((response) => response.status).catch(() => 0), { timeout: 60_000, intervals: [250] })
    .toBe(200);
}

async function stopServer() {
  const stopping = server!;
  const exited = new Promise((resolve) => stopping.once('exit', resolve));
  stopping.kill('SIGTERM');
  await exited;
  server = undefined;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-restart-'));
  const seeded = spawnSync('npm', ['run', '--silent', 'seed:demo'], { cwd: repoRoot, env: serverEnv(), encoding: 'utf8' });
  expect(seeded.status, seeded.stderr).toBe(0);
  await startServer();
});

test.afterAll(async () => {
  if (server) await stopServer();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function assignToMember(title: string) {
  const request = await playwrightRequest.newContext({ baseURL });
  await assignWork(await apiSignIn(request, 'manager'), `Restart ${title}`, [{ name: title, assignee: 'member1@example.com', dueInDays: 3 }]);
  await request.dispose();
}

const badge = (page: Page) => page.getByTestId('notification-badge');

test('a notification still arrives live after the server restarts mid-session', async ({ browser }) => {
  test.setTimeout(150_000);
  const context = await browser.newContext({ baseURL });
  const member = await context.newPage();
  await signIn(member, 'team_member');
  await readAllNotifications(member);

  await assignToMember(`Before restart ${Date.now().toString(36)}`);
  await expect(badge(member)).toHaveText('1');

  await stopServer();
  await startServer();

  // The page was never reloaded: the client reconnected on its own.
  await assignToMember(`After restart ${Date.now().toString(36)}`);
  await expect(badge(member)).toHaveText('2', { timeout: 40_000 });
  await expect(member).toHaveURL(`${baseURL}/team-member`);
  await context.close();
});
