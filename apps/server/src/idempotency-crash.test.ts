import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { REPLAYED_HEADER } from './platform';
import { adminQuery, isPostgresReachable, TEST_DATABASE_URL } from './test/build-app';
import { compiledForTests } from './test/compiled';
import { freePort } from './test/free-port';
import { unpackPgliteSnapshot } from './test/database-templates';

/**
 * Exactly once across a crash (decision record 050): a real server process, killed with SIGKILL
 * by its test switch (IDEMPOTENCY_CRASH_AT) just before or just after a keyed write commits, is
 * started again on the same database, and the phone's replay of the same request makes one
 * project in all, answered with the project the first request made.
 */
const serverPackageDir = fileURLToPath(new URL('..', import.meta.url));
const READY_TIMEOUT_MS = 60_000;
const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-crash-test-'));
const children: ChildProcess[] = [];
const databases: string[] = [];

interface RunningServer {
  url: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function startServer(database: Record<string, string>, crashAt?: 'before-commit' | 'after-commit'): Promise<RunningServer> {
  const script = await compiledForTests(fileURLToPath(new URL('server.ts', import.meta.url)), 'server');
  const port = await freePort();
  // TMPDIR: the embedded database's socket folder goes under tempRoot, which the cleanup removes (a SIGKILL leaves it behind).
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', JWT_SECRET: 'crash-test-secret-that-is-long-enough', LOG_LEVEL: 'warn', TMPDIR: tempRoot, ...database };
  delete env.IDEMPOTENCY_CRASH_AT;
  if (!database.DATABASE_URL) delete env.DATABASE_URL;
  if (crashAt) env.IDEMPOTENCY_CRASH_AT = crashAt;
  const child = spawn(process.execPath, [script], { cwd: serverPackageDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const server = { url: `http://127.0.0.1:${port}`, output: () => output, exited };
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (gone) throw new Error(`the server exited before it was ready:\n${output}`);
    if (await fetch(`${server.url}/api/health/`).then((response) => response.ok, () => false)) return server;
    if (Date.now() > deadline) throw new Error(`the server was not ready in time:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function post(server: RunningServer, pathname: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${pathname}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

/** Signs up a company and signs its owner in, as the web app does: the owner's id and bearer header. */
async function signUpOwner(server: RunningServer) {
  const company = `Crash Builders ${randomUUID().slice(0, 8)}`;
  const signedUp = await post(server, '/api/signup/', { company_name: company, company_password: 'company secret', email: 'owner@example.test', password: 'owner password' });
  expect(signedUp.status).toBe(201);
  const { company_id, user } = (await signedUp.json()) as { company_id: number; user: { id: number; role: string } };
  const tokens = await post(server, '/api/token/', { email: 'owner@example.test', password: 'owner password', role: user.role, company_id });
  expect(tokens.status).toBe(200);
  const auth = { authorization: `Bearer ${((await tokens.json()) as { access: string }).access}` };
  const manager = await post(server, '/api/users/', { email: 'manager@example.test', password: 'manager password', role: 'manager' }, auth);
  expect(manager.status).toBe(201);
  return { managerId: ((await manager.json()) as { id: number }).id, auth };
}

async function projectsNamed(server: RunningServer, auth: Record<string, string>, name: string): Promise<number[]> {
  const response = await fetch(`${server.url}/api/projects/?limit=100`, { headers: auth });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { id: number; name: string }[] | { results: { id: number; name: string }[] };
  return (Array.isArray(body) ? body : body.results).filter((project) => project.name === name).map((project) => project.id);
}

/** Sends a keyed write to a server that kills itself on it: the answer never comes, the process ends by SIGKILL. */
async function sendToDyingServer(server: RunningServer, write: () => Promise<Response>) {
  const answer = await write().then((response) => response.text(), (error: unknown) => error);
  expect(answer).toBeInstanceOf(Error);
  expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
}

async function crashAndReplay(database: Record<string, string>) {
  const project = (name: string, managerId: number) => ({ name, description: 'sent from a phone', start_date: '2026-12-01', end_date: '2027-03-01', status: 'planned', manager_id: managerId });

  // Killed right after the commit: the write and its answer are in, the phone never heard.
  const first = await startServer(database, 'after-commit');
  const owner = await signUpOwner(first);
  const committedKey = randomUUID();
  const committed = () => post(first, '/api/projects/', project('Committed before the crash', owner.managerId), { ...owner.auth, 'idempotency-key': committedKey });
  await sendToDyingServer(first, committed);

  // Killed right before the commit: nothing of the write is in.
  const second = await startServer(database, 'before-commit');
  const replayed = await post(second, '/api/projects/', project('Committed before the crash', owner.managerId), { ...owner.auth, 'idempotency-key': committedKey });
  expect(replayed.status, await replayed.clone().text()).toBe(201);
  expect(replayed.headers.get(REPLAYED_HEADER)).toBe('true');
  expect(await projectsNamed(second, owner.auth, 'Committed before the crash')).toEqual([((await replayed.json()) as { id: number }).id]);
  const lostKey = randomUUID();
  await sendToDyingServer(second, () => post(second, '/api/projects/', project('Lost in the crash', owner.managerId), { ...owner.auth, 'idempotency-key': lostKey }));

  const third = await startServer(database);
  expect(await projectsNamed(third, owner.auth, 'Lost in the crash')).toEqual([]);
  const acted = await post(third, '/api/projects/', project('Lost in the crash', owner.managerId), { ...owner.auth, 'idempotency-key': lostKey });
  expect(acted.status, await acted.clone().text()).toBe(201);
  expect(acted.headers.get(REPLAYED_HEADER)).toBeNull();
  const again = await post(third, '/api/projects/', project('Lost in the crash', owner.managerId), { ...owner.auth, 'idempotency-key': lostKey });
  expect(again.headers.get(REPLAYED_HEADER)).toBe('true');
  expect(await again.json()).toEqual(await acted.json());
  expect(await projectsNamed(third, owner.auth, 'Lost in the crash')).toHaveLength(1);
  expect(await projectsNamed(third, owner.auth, 'Committed before the crash')).toHaveLength(1);
}

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const name of databases) await adminQuery(`drop database if exists ${name} with (force)`);
  fs.rmSync(tempRoot, { recursive: true, force: true });
});

describe('a keyed write across a crash of the server process', { timeout: READY_TIMEOUT_MS * 4 }, () => {
  it('acts once on the embedded database in a data directory', async () => {
    const dataDir = path.join(tempRoot, 'data');
    unpackPgliteSnapshot(dataDir);
    await crashAndReplay({ DATA_DIR: dataDir });
  });

  it('acts once on PostgreSQL', async ({ skip }) => {
    if (!(await isPostgresReachable())) skip();
    const name = `siteboard_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    databases.push(name);
    await adminQuery(`create database ${name}`);
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    await crashAndReplay({ DATABASE_URL: url.toString(), DATA_DIR: path.join(tempRoot, 'pg-data') });
  });
});
