import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHUTDOWN_TIMEOUT_MS } from './platform';
import { freePort } from './test/free-port';

const serverPackageDir = fileURLToPath(new URL('..', import.meta.url));
/** What `npm start` runs: the compiled server, built here from the current sources. */
const serverEntry = path.join(serverPackageDir, 'dist/server.js');
const READY_TIMEOUT_MS = 45_000;
const EXIT_TIMEOUT_MS = 20_000;

interface RunningServer {
  child: ChildProcess;
  url: string;
  /** stdout and stderr together, as an operator would read them. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started: RunningServer[] = [];
const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-server-test-'));

async function startServer(dataDir: string, env: Record<string, string> = {}, options: { command?: string[] } = {}): Promise<RunningServer> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    JWT_SECRET: 'server-test-secret-that-is-long-enough',
    LOG_LEVEL: 'warn',
    // The durability check reads back the companies it wrote through the public list.
    PUBLIC_COMPANY_LIST: 'true',
    // Its database socket's folder too: a server killed with SIGKILL cannot remove it, the test's cleanup does.
    TMPDIR: tempRoot,
    ...env,
  };
  // The embedded database is the subject here, whatever the developer's shell points at.
  if (env.DATABASE_URL === undefined) delete childEnv.DATABASE_URL;
  const [command, ...args] = options.command ?? [process.execPath, serverEntry];
  const child = spawn(command!, args, { cwd: serverPackageDir, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const server = { child, url: `http://127.0.0.1:${port}`, output: () => output, exited };
  started.push(server);
  return server;
}

async function waitUntilReady(server: RunningServer): Promise<void> {
  let gone = false;
  void server.exited.then(() => (gone = true));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (gone) throw new Error(`the server exited before it was ready:\n${server.output()}`);
    const healthy = await fetch(`${server.url}/api/health/`).then((response) => response.ok, () => false);
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server was not ready within ${READY_TIMEOUT_MS} ms:\n${server.output()}`);
}

async function until(condition: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('the condition did not come true in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function waitForExit(server: RunningServer) {
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`the server did not exit:\n${server.output()}`)), EXIT_TIMEOUT_MS).unref());
  return Promise.race([server.exited, timeout]);
}

/**
 * Writes a GET on a connection of its own and resolves once the request has left this process,
 * with the status of its answer to come (0 for a connection reset or closed without one).
 */
function sendRequest(url: URL, pathname: string): Promise<{ status: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let answer = '';
    const status = new Promise<number>((settle) => {
      socket.on('data', (chunk) => (answer += chunk));
      socket.on('error', () => settle(0));
      socket.on('close', () => settle(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
    });
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.write(`GET ${pathname} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`, () => resolve({ status }));
    });
  });
}

async function signUp(server: RunningServer, companyName: string) {
  return fetch(`${server.url}/api/signup/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ company_name: companyName, company_password: 'company secret', email: 'owner@example.test', password: 'owner password' }),
  });
}

async function companyNames(server: RunningServer): Promise<string[]> {
  const response = await fetch(`${server.url}/api/companies/`);
  return ((await response.json()) as { name: string }[]).map((company) => company.name);
}

beforeAll(() => {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: serverPackageDir, stdio: 'inherit' });
}, 60_000);

afterAll(async () => {
  for (const server of started) {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await server.exited;
  }
  fs.rmSync(tempRoot, { recursive: true, force: true });
});

// One data directory through a server's life: each step starts where the previous one left it.
describe('the server process on an embedded database', { timeout: READY_TIMEOUT_MS * 2 }, () => {
  const dataDir = path.join(tempRoot, 'data');
  const lockFile = path.join(dataDir, 'siteboard.lock');
  let first: RunningServer;

  it('starts and acknowledges a signup over HTTP', async () => {
    first = await startServer(dataDir);
    await waitUntilReady(first);

    const response = await signUp(first, 'Graceful Builders');

    expect(response.status).toBe(201);
  });

  it('refuses a second process on the same data directory', async () => {
    const second = await startServer(dataDir);

    const { code } = await waitForExit(second);

    expect(code).not.toBe(0);
    expect(second.output()).toMatch(/data directory .* is in use/);
    expect((await fetch(`${first.url}/api/health/`)).status).toBe(200);
  });

  it('on SIGTERM answers every request already sent, exits with code 0 and releases the data directory', async () => {
    const url = new URL(first.url);
    const sent = await Promise.all(Array.from({ length: 50 }, () => sendRequest(url, '/api/health/')));

    first.child.kill('SIGTERM');

    const statuses = await Promise.all(sent.map((request) => request.status));
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(await waitForExit(first)).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  it('after kill -9, starts again on the stale lock with every acknowledged write present', async () => {
    const killed = await startServer(dataDir);
    await waitUntilReady(killed);
    expect((await signUp(killed, 'Abrupt Builders')).status).toBe(201);

    killed.child.kill('SIGKILL');
    expect(await waitForExit(killed)).toEqual({ code: null, signal: 'SIGKILL' });
    expect(fs.existsSync(lockFile)).toBe(true);

    const restarted = await startServer(dataDir);
    await waitUntilReady(restarted);
    expect(await companyNames(restarted)).toEqual(expect.arrayContaining(['Graceful Builders', 'Abrupt Builders']));
    restarted.child.kill('SIGTERM');
    expect((await waitForExit(restarted)).code).toBe(0);
  });
});

/** The messages of the server's log lines (JSON when its output is not a terminal), in order. */
function logMessages(server: RunningServer): { level: number; msg: string }[] {
  return server
    .output()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { level: number; msg: string });
}

describe('the server process with a bad environment', { timeout: READY_TIMEOUT_MS }, () => {
  it('exits 1 naming the bad variable, in one log line', async () => {
    const server = await startServer(path.join(tempRoot, 'never-used'), { PORT: 'abc' });

    const { code } = await waitForExit(server);

    expect(code).toBe(1);
    expect(logMessages(server)).toEqual([{ level: 60, msg: 'Invalid configuration:\n  PORT: must be a number (got "abc")', time: expect.any(Number), pid: server.child.pid, hostname: os.hostname() }]);
  });

  it('on a database that takes connections and never answers, exits 1 within seconds saying where it looked', async () => {
    // A host gone quiet: the connection opens, and nothing ever comes back.
    const quiet = net.createServer(() => {});
    await new Promise<void>((resolve) => quiet.listen(0, '127.0.0.1', resolve));
    const port = (quiet.address() as net.AddressInfo).port;
    try {
      const server = await startServer(path.join(tempRoot, 'never-used'), { DATABASE_URL: `postgres://siteboard:hunter2-secret@127.0.0.1:${port}/siteboard` });

      const { code } = await waitForExit(server);

      expect(code).toBe(1);
      expect(logMessages(server).map((line) => line.msg)).toEqual([`SiteBoard cannot reach its database at postgres://127.0.0.1:${port}/siteboard (DATABASE_URL): no answer within 5 s.`]);
      expect(server.output()).not.toContain('hunter2');
    } finally {
      quiet.close();
    }
  });

  it('on a database that refuses connections, exits 1 at once saying so, even with LOG_LEVEL=silent', async () => {
    const port = await freePort();
    const server = await startServer(path.join(tempRoot, 'never-used'), { DATABASE_URL: `postgres://siteboard@127.0.0.1:${port}/siteboard`, LOG_LEVEL: 'silent' });

    const { code } = await waitForExit(server);

    expect(code).toBe(1);
    expect(logMessages(server).map((line) => line.msg)).toEqual([`SiteBoard cannot reach its database at postgres://127.0.0.1:${port}/siteboard (DATABASE_URL): the connection was refused (is PostgreSQL running there, on that port?).`]);
  });
});

/** The command lines of a process and all its descendants, as `ps` shows them. */
/** The pids below `pid` (npm, its shell, the server), deepest last. */
function descendants(pid: number): number[] {
  const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  return children.flatMap((child) => [child, ...descendants(child)]);
}

function processTree(pid: number): string[] {
  const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  const commandLine = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  return [commandLine, ...children.flatMap(processTree)];
}

describe('npm start of the server package', { timeout: READY_TIMEOUT_MS }, () => {
  it('runs compiled JavaScript: no tsx or esbuild process in its process tree', async () => {
    // The data directory the lifecycle above left behind: no database to create.
    const server = await startServer(path.join(tempRoot, 'data'), { LOG_LEVEL: 'info' }, { command: ['npm', 'run', '--silent', 'start'] });
    await waitUntilReady(server);

    const tree = processTree(server.child.pid!);

    // With a young generation of at most 4 MB: node's default lets it grow to 32 MB through a busy
    // minute and keep it long after (`git show f907f16:bench/results/2026-11-24-semi-space.md`).
    const servers = tree.filter((commandLine) => commandLine.includes('dist/server.js'));
    expect(servers.length).toBeGreaterThan(0);
    expect(servers.filter((commandLine) => !commandLine.includes('--max-semi-space-size=4'))).toEqual([]);
    // And an old generation that starts at 64 MB: with V8's tight first limits a burst of photo
    // uploads ran a mark-compact every photo, and reads waited behind them (bench/results/photos.md).
    expect(servers.filter((commandLine) => !commandLine.includes('--initial-old-space-size=64'))).toEqual([]);
    expect(tree.filter((commandLine) => /tsx|esbuild/.test(commandLine))).toEqual([]);

    // Its output is a pipe here, as under systemd or a container runtime: JSON lines, each line of a
    // request naming the id its answer carries.
    const requestId = (await fetch(`${server.url}/api/health/`)).headers.get('x-request-id')!;
    await until(() => server.output().includes(`"reqId":"${requestId}","res"`));
    const lines = server.output().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { reqId?: string; msg: string });
    expect(lines.filter((line) => line.reqId === requestId).map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
    // Stopped as systemd stops it: every process of the tree is told (npm alone may leave its child running).
    const below = descendants(server.child.pid!);
    server.child.kill('SIGTERM');
    for (const pid of below) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // Gone already.
      }
    }
    await waitForExit(server);
    await until(() => below.every((pid) => !fs.existsSync(`/proc/${pid}`)));
  });

  it('is what the systemd unit runs, which waits longer for a stop than the drain may take', () => {
    const unit = fs.readFileSync(path.join(serverPackageDir, '../../deploy/siteboard.service'), 'utf8');
    const serverStart = (JSON.parse(fs.readFileSync(path.join(serverPackageDir, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;

    const execStart = /^ExecStart=\/usr\/bin\/node (.*)$/m.exec(unit)![1]!.split(' ');
    expect(execStart).toEqual([...serverStart.split(' ').filter((word) => word.startsWith('--')), 'apps/server/dist/server.js']);
    expect(Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)![1]) * 1000).toBeGreaterThan(SHUTDOWN_TIMEOUT_MS);
  });

  it('is a unit systemd reads without a complaint', (test) => {
    if (!fs.existsSync('/usr/bin/systemd-analyze')) test.skip();
    // Installed as a template (siteboard@.service), one instance per port.
    const instance = path.join(tempRoot, 'siteboard@3001.service');
    fs.copyFileSync(path.join(serverPackageDir, '../../deploy/siteboard.service'), instance);

    const verified = spawnSync('/usr/bin/systemd-analyze', ['verify', instance], { encoding: 'utf8' });

    expect(verified.status).toBe(0);
    expect(verified.stderr.trim()).toBe('');
  });

  it('is what the root npm start runs too, with the same node arguments', () => {
    const startOf = (file: string) => (JSON.parse(fs.readFileSync(file, 'utf8')) as { scripts: { start: string } }).scripts.start;
    const nodeArguments = (command: string) => command.split(' ').filter((word) => word.startsWith('--'));
    const root = startOf(path.join(serverPackageDir, '../../package.json'));
    expect(root).toMatch(/^node .*scripts\/start\.mjs$/);
    expect(nodeArguments(root)).toEqual(nodeArguments(startOf(path.join(serverPackageDir, 'package.json'))));
  });
});

describe("the server's log", { timeout: READY_TIMEOUT_MS }, () => {
  it('writes readable lines, not JSON, when its output is a terminal', async () => {
    // `script` gives the server a terminal of its own and copies what it shows.
    const command = `${process.execPath} ${serverEntry}`;
    const server = await startServer(path.join(tempRoot, 'terminal-data'), { LOG_LEVEL: 'info' }, { command: ['script', '--quiet', '--return', '--command', command, '/dev/null'] });
    await waitUntilReady(server);
    await until(() => server.output().includes('SiteBoard is running'));

    const running = server.output().split(/\r?\n/).find((line) => line.includes('SiteBoard is running'))!;
    expect(running).toMatch(/INFO/);
    expect(running.trim().startsWith('{')).toBe(false);
    server.child.kill('SIGTERM');
    await waitForExit(server);
  });
});
