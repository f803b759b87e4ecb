/**
 * WebSocket benchmark: N connected clients on one server instance, R notifications per second
 * created through the real API for D seconds; delivery latency, losses and memory per connection.
 * Every notification carries its subtask's name ('wsb-<n>'), by which it is matched, timed (from
 * its request sent and from its response) and counted; one not delivered is a failure.
 *
 *   npx tsx bench/ws/ws-bench.ts
 *
 * Environment (all optional):
 *   BENCH_DB=postgres|pglite|both   which database(s) the server runs on (postgres)
 *   BENCH_PG_URL                    admin connection (TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_CLIENTS=2000              users, each with one WebSocket
 *   BENCH_RATE=200                  notifications created per second (requests/s = rate / notifications per request)
 *   BENCH_DURATION=30               seconds of load
 *   BENCH_MIX=batch|mixed|create|review
 *                                   how notifications are made:
 *                                   batch  (default) a manager creates one major task with BENCH_BATCH
 *                                          subtasks (POST /api/major-tasks/, as the Create Task screen
 *                                          does), each assigned to a different member of their team:
 *                                          BENCH_BATCH task_assignment notifications per request, written
 *                                          in one transaction;
 *                                   create a manager creates one subtask for a team member (POST
 *                                          /api/subtasks/, task_assignment), one per request;
 *                                   review a manager approves/declines a waiting subtask (PATCH
 *                                          /api/subtasks/{id}/, task_approved/task_declined), one per request;
 *                                   mixed  create and review alternately, one per request
 *   BENCH_BATCH=5                   subtasks (so notifications) per request in the batch mix (at most 100, the API's limit)
 *   BENCH_LOST_AFTER_MS=5000        a notification not delivered this long after its response is lost
 *   BENCH_SETTLE_MS=3000            pause (after a forced GC) before each memory reading
 *   BENCH_CONNECT_CONCURRENCY=50    WebSocket handshakes in flight while connecting
 *   BENCH_HTTP_SOCKETS=32           keep-alive sockets for the API requests
 *   BENCH_PROFILE=1                 write a CPU profile of the server during the load (bench/results/*.cpuprofile)
 *   BENCH_WRITE=0                   do not write bench/results/<date>-websocket.md
 *   BENCH_SERVER_ROOT               another checkout whose apps/server/src/server.ts to start (A/B comparisons)
 *   DB_POOL_SIZE                    passed to the server as is
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { openDatabase, type Database } from '../../apps/server/src/db/client';
import { createTokens } from '../../apps/server/src/features/auth/auth.tokens';
import { hashPassword } from '../../apps/server/src/lib/passwords';
import { databaseUrl, withAdmin } from '../lib/large-database';
import { writeFixture, type Fixture, type FixtureUser } from './fixture';
import { connectInspector, type Inspector } from './inspector';
import { cpuSeconds, machineCpu, mib, ms, openFileLimits, peakRssKiB, rssKiB, summarize, type Summary } from './metrics';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SERVER_ROOT = path.resolve(process.env.BENCH_SERVER_ROOT ?? ROOT);
const SUBTASK_PREFIX = 'wsb-';
const PASSWORD = 'bench-password';
const JWT_SECRET = `bench-${randomUUID()}-${randomUUID()}`;

function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number (got "${raw}")`);
  return value;
}

function choice<T extends string>(name: string, options: readonly T[], fallback: T): T {
  const raw = process.env[name] ?? fallback;
  if (!options.includes(raw as T)) throw new Error(`${name} must be one of ${options.join(', ')} (got "${raw}")`);
  return raw as T;
}

const config = {
  databases: { postgres: ['postgres'], pglite: ['pglite'], both: ['postgres', 'pglite'] }[choice('BENCH_DB', ['postgres', 'pglite', 'both'], 'postgres')] as Kind[],
  clients: Math.round(intEnv('BENCH_CLIENTS', 2000)),
  rate: intEnv('BENCH_RATE', 200),
  durationS: intEnv('BENCH_DURATION', 30),
  mix: choice('BENCH_MIX', ['batch', 'mixed', 'create', 'review'], 'batch'),
  batch: Math.round(intEnv('BENCH_BATCH', 5)),
  lostAfterMs: intEnv('BENCH_LOST_AFTER_MS', 5000),
  settleMs: intEnv('BENCH_SETTLE_MS', 3000),
  connectConcurrency: Math.round(intEnv('BENCH_CONNECT_CONCURRENCY', 50)),
  httpSockets: Math.round(intEnv('BENCH_HTTP_SOCKETS', 32)),
  profile: process.env.BENCH_PROFILE === '1',
  write: process.env.BENCH_WRITE !== '0',
};
type Kind = 'postgres' | 'pglite';
if (config.batch > 100) throw new Error(`BENCH_BATCH must be at most 100, the API's limit of subtasks per major task (got ${config.batch})`);
/** Notifications each request makes. */
const perRequest = config.mix === 'batch' ? config.batch : 1;
/** The managers and team members of the fixture (one manager per twenty users). */
const managerCount = Math.max(1, Math.round(config.clients / 20));
const memberCount = config.clients - 1 - managerCount;
if (config.mix === 'batch' && config.batch > memberCount) throw new Error(`BENCH_BATCH=${config.batch} needs that many team members (the fixture has ${memberCount}): raise BENCH_CLIENTS.`);

/** Which mix ran, in words: the request and what it notifies. */
function mixLabel(): string {
  switch (config.mix) {
    case 'batch':
      return `batch: POST /api/major-tasks/ with ${config.batch} subtasks, ${config.batch} task_assignment notifications per request`;
    case 'create':
      return 'create: POST /api/subtasks/, 1 task_assignment notification per request';
    case 'review':
      return 'review: PATCH /api/subtasks/{id}/ approve or decline, 1 task_approved / task_declined notification per request';
    case 'mixed':
      return 'mixed: POST /api/subtasks/ and PATCH /api/subtasks/{id}/ alternately, 1 notification per request';
  }
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const log = (text: string) => console.log(`[ws-bench ${new Date().toISOString().slice(11, 19)}] ${text}`);

// ---------------------------------------------------------------------------------------------
// Open files: every WebSocket is a descriptor in this process and in the server.

/** Re-runs this script under a shell that raised the soft limit to what is needed (up to the hard limit). */
function ensureOpenFileLimit(): boolean {
  const needed = config.clients + 512;
  const { soft, hard } = openFileLimits();
  if (soft >= needed) return true;
  if (hard < needed) throw new Error(`${config.clients} clients need ~${needed} open files; the hard limit is ${hard} (raise it: ulimit -Hn, /etc/security/limits.conf).`);
  if (process.env.BENCH_RAISED_LIMIT === '1') throw new Error(`Could not raise the open-file limit to ${needed} (still ${soft}).`);
  log(`open-file limit ${soft} < ${needed}: re-running with ulimit -n ${needed}`);
  const child = spawn('/bin/sh', ['-c', 'ulimit -n "$0" && exec "$@"', String(needed), process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_RAISED_LIMIT: '1' },
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return false;
}

// ---------------------------------------------------------------------------------------------
// The server process.

const AVOIDED_PORTS = new Set([3000, 4173, 4190, 5432, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080]);

async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = net.createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port: chosen } = server.address() as net.AddressInfo;
        server.close(() => resolve(chosen));
      });
    });
    if (!AVOIDED_PORTS.has(port)) return port;
  }
}

interface ServerProcess {
  child: ChildProcess;
  pid: number;
  port: number;
  inspector?: Inspector;
  output: { lines: number; warnings: number; last: string[] };
  stop(): Promise<void>;
}

async function startServer(kind: Kind, where: { url?: string; dataDir?: string }): Promise<ServerProcess> {
  const port = await freePort();
  const inspectPort = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', JWT_SECRET, LOG_LEVEL: 'warn', NODE_ENV: 'production' };
  delete env.DATABASE_URL;
  delete env.DATA_DIR;
  if (kind === 'postgres') env.DATABASE_URL = where.url;
  else env.DATA_DIR = where.dataDir;
  // `npm start` runs `tsx src/server.ts`; tsx's loader in the server's own node process keeps its pid the one to measure.
  const child = spawn(process.execPath, [`--inspect=127.0.0.1:${inspectPort}`, '--import', import.meta.resolve('tsx'), 'apps/server/src/server.ts'], {
    cwd: SERVER_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { lines: 0, warnings: 0, last: [] as string[] };
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) {
        if (!line.trim() || /^(Debugger (listening|ending|attached)|For help, see|Waiting for the debugger)/.test(line)) continue;
        output.lines++;
        if (/"level":(40|50|60)/.test(line) || /warn|error/i.test(line)) output.warnings++;
        output.last.push(line.length > 400 ? `${line.slice(0, 400)}…` : line);
        if (output.last.length > 20) output.last.shift();
      }
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let gone = false;
  void exited.then(() => (gone = true));

  const started = performance.now();
  for (;;) {
    if (gone) throw new Error(`The server exited while starting:\n${output.last.join('\n')}`);
    const status = await request(port, 'GET', '/api/health/').then(
      (answer) => answer.status,
      () => 0,
    );
    if (status === 200) break;
    if (performance.now() - started > 120_000) throw new Error('The server did not answer /api/health/ within 120 s.');
    await sleep(200);
  }
  const inspector = await connectInspector(inspectPort).catch((error: Error) => {
    log(`no inspector (${error.message}): memory readings without a forced GC`);
    return undefined;
  });
  log(`server pid ${child.pid} on port ${port} is up after ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return {
    child,
    pid: child.pid!,
    port,
    inspector,
    output,
    async stop() {
      inspector?.close();
      if (gone) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP: small keep-alive client; only error bodies are read.

let agent = new http.Agent({ keepAlive: true, maxSockets: config.httpSockets });

function request(port: number, method: string, url: string, body?: string, token?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(body);
    }
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers, agent }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

// ---------------------------------------------------------------------------------------------
// One run.

/** One API request and the notifications it makes: keys[i] (subtask 'wsb-<keys[i]>') goes to recipients[i]. */
interface Op {
  keys: number[];
  recipients: number[];
  method: 'POST' | 'PATCH';
  path: string;
  body: string;
  token: string;
}

export interface RunResult {
  kind: Kind;
  mix: string;
  perRequest: number;
  databaseVersion: string;
  fixtureSeconds: number;
  clients: number;
  connected: number;
  connectFailures: number;
  connectSeconds: number;
  connectLatency: Summary;
  /** Notifications. */
  planned: number;
  sent: number;
  created: number;
  /** Requests. */
  requestsPlanned: number;
  requestsSent: number;
  requestsSucceeded: number;
  /** Failed requests (each loses its perRequest notifications). */
  httpErrors: number;
  httpErrorKinds: Record<string, number>;
  loadSeconds: number;
  /** Notifications per second offered and created. */
  sendRate: number;
  createdRate: number;
  httpLatency: Summary;
  delivered: number;
  lost: number;
  late: number;
  duplicates: number;
  misdelivered: number;
  unmatched: number;
  fromSend: Summary;
  fromResponse: Summary;
  rssBeforeKiB: number;
  rssAfterKiB: number;
  heapBeforeBytes: number;
  heapAfterBytes: number;
  rssAfterLoadKiB: number;
  peakRssKiB: number;
  serverCpuPercent: number;
  postgresCpuPercent: number;
  benchCpuPercent: number;
  machineCpuPercent: number;
  otherCpuPercent: number;
  loadAverage: number;
  benchLoopDelayP99: number;
  benchLoopDelayMax: number;
  unexpectedCloses: Record<string, number>;
  shutdownSeconds: number;
  shutdownCloses: Record<string, number>;
  serverLogLines: number;
  serverWarnings: number;
  serverLastLines: string[];
  timeline: { from: number; sent: number; created: number; delivered: number; p50: number; p99: number }[];
}


function addDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

async function run(kind: Kind, cleanups: (() => Promise<void>)[]): Promise<RunResult> {
  log(`=== ${kind}: ${config.clients} clients, ${config.rate} notifications/s for ${config.durationS} s (${mixLabel()}) ===`);
  agent.destroy();
  agent = new http.Agent({ keepAlive: true, maxSockets: config.httpSockets });
  const requestsPlanned = Math.max(1, Math.round((config.rate * config.durationS) / perRequest));
  const planned = requestsPlanned * perRequest;
  const requestRate = config.rate / perRequest;
  const reviews = config.mix === 'review' ? planned : config.mix === 'mixed' ? Math.floor(planned / 2) : 0;

  // --- database and fixture (written before the server starts: PGlite is one process per data dir)
  const fixtureStarted = performance.now();
  let database: Database;
  const where: { url?: string; dataDir?: string } = {};
  let databaseName = '';
  if (kind === 'postgres') {
    databaseName = `siteboard_bench_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    await withAdmin((client) => client.query(`create database ${databaseName}`));
    cleanups.push(() => withAdmin((client) => client.query(`drop database if exists ${databaseName} with (force)`)).then(() => log(`dropped database ${databaseName}`)));
    where.url = databaseUrl(databaseName);
    database = await openDatabase({ kind: 'postgres', url: where.url, poolSize: 2 });
  } else {
    where.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-ws-bench-'));
    cleanups.push(async () => {
      fs.rmSync(where.dataDir!, { recursive: true, force: true });
      log(`removed ${where.dataDir}`);
    });
    database = await openDatabase({ kind: 'pglite', dataDir: where.dataDir });
  }
  let fixture: Fixture;
  try {
    fixture = await writeFixture(database.db, {
      users: config.clients,
      managers: managerCount,
      pendingSubtasks: reviews,
      passwordHash: await hashPassword(PASSWORD),
      companyName: `WS bench ${randomUUID().slice(0, 8)}`,
      subtaskPrefix: SUBTASK_PREFIX,
      dueDate: addDays(60),
    });
  } finally {
    await database.close();
  }
  const fixtureSeconds = (performance.now() - fixtureStarted) / 1000;
  log(
    `fixture: ${fixture.users.length} users, ${fixture.projectOf.size} projects, ${fixture.majorTaskOf.size} major tasks, ${fixture.pending.length} subtasks waiting for approval (${fixtureSeconds.toFixed(1)} s)`,
  );

  // --- access tokens, minted as the server does (auth.service issueTokenPair): one per user's login family
  const tokens = createTokens(JWT_SECRET);
  const accessOf = new Map<number, string>();
  for (const user of fixture.users) accessOf.set(user.id, await tokens.signAccess({ userId: user.id, companyId: fixture.companyId, family: user.family }));

  // --- server
  const server = await startServer(kind, where);
  cleanups.push(() => server.stop().then(() => log('server stopped')));
  const { port } = server;

  const login = await request(port, 'POST', '/api/token/', JSON.stringify({ role: 'admin', email: 'admin@bench.test', password: PASSWORD, company_id: fixture.companyId }));
  if (login.status !== 200) throw new Error(`The fixture's admin cannot log in: ${login.status} ${login.body}`);
  const probe = await request(port, 'GET', '/api/notifications/', undefined, accessOf.get(fixture.users[fixture.users.length - 1].id));
  if (probe.status !== 200) throw new Error(`A minted access token is refused: ${probe.status} ${probe.body}`);

  // --- message matching: the subtask name ('wsb-<key>') is in every notification's text
  const capacity = Math.max(...fixture.pending.map((row) => row.key), 0) + planned + 2;
  const sentAt = new Float64Array(capacity);
  const respondedAt = new Float64Array(capacity);
  const arrivedAt = new Float64Array(capacity);
  const expectedUser = new Int32Array(capacity);
  const outcome = new Uint8Array(capacity); // 0 not sent, 1 in flight, 2 created, 3 failed
  let duplicates = 0;
  let misdelivered = 0;
  let unmatched = 0;
  const marker = Buffer.from(`'${SUBTASK_PREFIX}`);

  function onMessage(userId: number, data: Buffer) {
    const now = performance.now();
    const at = data.indexOf(marker);
    if (at < 0) return void unmatched++;
    let key = 0;
    for (let i = at + marker.length; i < data.length; i++) {
      const c = data[i];
      if (c < 48 || c > 57) break;
      key = key * 10 + c - 48;
    }
    if (key >= capacity || expectedUser[key] === 0) return void unmatched++;
    if (expectedUser[key] !== userId) return void misdelivered++;
    if (arrivedAt[key] > 0) return void duplicates++;
    arrivedAt[key] = now;
  }

  // --- sockets
  let closingAll = false;
  let shuttingDown = false;
  const unexpectedCloses: Record<string, number> = {};
  const shutdownCloses: Record<string, number> = {};
  const sockets: WebSocket[] = [];
  function connect(user: FixtureUser): Promise<number> {
    const url = `ws://127.0.0.1:${port}/ws/notifications/${user.id}/${encodeURIComponent(user.email)}/?token=${encodeURIComponent(accessOf.get(user.id)!)}`;
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const socket = new WebSocket(url, { perMessageDeflate: false, handshakeTimeout: 60_000 });
      let open = false;
      socket.on('message', (data) => onMessage(user.id, data as Buffer));
      socket.once('unexpected-response', (_request, response) => {
        reject(new Error(`upgrade refused with ${response.statusCode}`));
        socket.terminate();
      });
      socket.on('error', (error) => {
        if (!open) reject(error);
      });
      socket.once('close', (code) => {
        const tally = shuttingDown ? shutdownCloses : closingAll ? undefined : unexpectedCloses;
        if (open && tally) tally[code] = (tally[code] ?? 0) + 1;
      });
      socket.once('open', () => {
        open = true;
        sockets.push(socket);
        resolve(performance.now() - started);
      });
    });
  }
  cleanups.push(async () => {
    closingAll = true;
    for (const socket of sockets) socket.terminate();
  });

  async function connectAll(users: FixtureUser[]) {
    const latencies: number[] = [];
    const failures: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < users.length) {
        const user = users[next++];
        await connect(user).then(
          (latency) => latencies.push(latency),
          (error: Error) => failures.push(error.message),
        );
      }
    };
    await Promise.all(Array.from({ length: config.connectConcurrency }, worker));
    return { latencies, failures };
  }

  async function settledMemory() {
    await sleep(config.settleMs / 2);
    await server.inspector?.collectGarbage();
    await sleep(config.settleMs / 2);
    return { rss: rssKiB(server.pid), heap: (await server.inspector?.heapUsedBytes()) ?? Number.NaN };
  }

  // Warm the upgrade path up (route, hooks, ws internals), then leave: the baseline is a server that has served sockets.
  const warmUsers = fixture.users.slice(0, Math.min(50, fixture.users.length));
  await connectAll(warmUsers);
  closingAll = true;
  await Promise.all(sockets.splice(0).map((socket) => new Promise((resolve) => (socket.once('close', resolve), socket.close(1000)))));
  closingAll = false;

  const before = await settledMemory();
  log(`server RSS before connecting: ${mib(before.rss)} (V8 heap ${mib(before.heap / 1024)})`);

  const connectStarted = performance.now();
  const connection = await connectAll(fixture.users);
  const connectSeconds = (performance.now() - connectStarted) / 1000;
  log(`connected ${connection.latencies.length}/${fixture.users.length} in ${connectSeconds.toFixed(1)} s${connection.failures.length ? `; failures: ${[...new Set(connection.failures)].slice(0, 3).join('; ')}` : ''}`);
  const after = await settledMemory();
  log(`server RSS after connecting: ${mib(after.rss)} (V8 heap ${mib(after.heap / 1024)}): ${((after.rss - before.rss) / Math.max(1, connection.latencies.length)).toFixed(1)} KiB per connection`);

  // --- the operations, planned up front so the timer only sends
  const membersOf = new Map<number, number[]>();
  for (const user of fixture.users) if (user.role === 'team_member' && user.managerId !== null) membersOf.set(user.managerId, [...(membersOf.get(user.managerId) ?? []), user.id]);
  const managers = fixture.users.filter((user) => user.role === 'manager' && membersOf.has(user.id));
  const allMembers = fixture.users.filter((user) => user.role === 'team_member').map((user) => user.id);
  const memberCursor = new Map<number, number>();
  let companyCursor = 0;
  /** `count` different team members for the manager, in turn: their own team, else (a team smaller than a batch) any of the company's. */
  function assigneesFor(managerId: number, count: number): number[] {
    const team = membersOf.get(managerId)!;
    if (team.length >= count) {
      const cursor = memberCursor.get(managerId) ?? 0;
      memberCursor.set(managerId, cursor + count);
      return Array.from({ length: count }, (_, i) => team[(cursor + i) % team.length]);
    }
    const cursor = companyCursor;
    companyCursor += count;
    return Array.from({ length: count }, (_, i) => allMembers[(cursor + i) % allMembers.length]);
  }
  const dueDate = addDays(60);
  let nextKey = Math.max(...fixture.pending.map((row) => row.key), 0) + 1;
  let creates = 0;
  let reviewIndex = 0;
  const ops: Op[] = [];
  for (let i = 0; i < requestsPlanned; i++) {
    const review = config.mix === 'review' || (config.mix === 'mixed' && i % 2 === 1);
    if (config.mix === 'batch') {
      const manager = managers[creates++ % managers.length];
      const recipients = assigneesFor(manager.id, config.batch);
      const keys = recipients.map(() => nextKey++);
      ops.push({
        keys,
        recipients,
        method: 'POST',
        path: '/api/major-tasks/',
        body: JSON.stringify({
          project_id: fixture.projectOf.get(manager.id),
          name: `Bench batch ${i + 1}`,
          description: 'WebSocket benchmark',
          subtasks: keys.map((key, index) => ({ name: `${SUBTASK_PREFIX}${key}`, description: '', assigned_to_id: recipients[index], due_date: dueDate, priority: 'medium' })),
        }),
        token: accessOf.get(manager.id)!,
      });
    } else if (review) {
      const pending = fixture.pending[reviewIndex];
      const approve = reviewIndex % 2 === 0;
      reviewIndex++;
      ops.push({
        keys: [pending.key],
        recipients: [pending.assigneeId],
        method: 'PATCH',
        path: `/api/subtasks/${pending.id}/`,
        body: JSON.stringify({ status: approve ? 'completed' : 'ongoing' }),
        token: accessOf.get(pending.assignerId)!,
      });
    } else {
      const manager = managers[creates++ % managers.length];
      const [assignee] = assigneesFor(manager.id, 1);
      const key = nextKey++;
      ops.push({
        keys: [key],
        recipients: [assignee],
        method: 'POST',
        path: '/api/subtasks/',
        body: JSON.stringify({ major_task_id: fixture.majorTaskOf.get(manager.id), name: `${SUBTASK_PREFIX}${key}`, assigned_to_id: assignee, due_date: dueDate, priority: 'medium' }),
        token: accessOf.get(manager.id)!,
      });
    }
  }

  // --- load: an open-loop timer sends what is due since the start, so a slow server cannot slow the offered rate down
  const httpErrorKinds: Record<string, number> = {};
  const httpLatencies: number[] = [];
  let inFlight = 0;
  /** Requests sent, and the notifications they are to make. */
  let sent = 0;
  let sentNotifications = 0;
  let lastResponse = 0;
  function send(op: Op) {
    const started = performance.now();
    op.keys.forEach((key, index) => {
      sentAt[key] = started;
      expectedUser[key] = op.recipients[index];
      outcome[key] = 1;
    });
    inFlight++;
    sent++;
    sentNotifications += op.keys.length;
    const fail = (kind: string) => {
      for (const key of op.keys) outcome[key] = 3;
      httpErrorKinds[kind] = (httpErrorKinds[kind] ?? 0) + 1;
    };
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: op.method,
        path: op.path,
        agent,
        headers: { authorization: `Bearer ${op.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(op.body) },
      },
      (response) => {
        const done = performance.now();
        for (const key of op.keys) respondedAt[key] = done;
        lastResponse = done;
        httpLatencies.push(done - started);
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) {
          for (const key of op.keys) outcome[key] = 2;
          response.resume();
          response.on('end', () => inFlight--);
          return;
        }
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          inFlight--;
          fail(`${status} ${text.slice(0, 120)}`);
        });
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      inFlight--;
      lastResponse = performance.now();
      fail(error.code ?? error.message);
    });
    req.end(op.body);
  }

  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  const backendPids = async () =>
    kind === 'postgres'
      ? withAdmin(async (client) => (await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [databaseName])).rows.map((row) => row.pid))
      : [];
  const backendCpu = (pids: number[]) => new Map(pids.map((pid) => [pid, cpuSeconds(pid)]));
  const pgCpuStart = backendCpu(await backendPids());
  if (config.profile) await server.inspector?.startProfile();
  const serverCpuStart = cpuSeconds(server.pid);
  const benchCpuStart = process.cpuUsage();
  const machineStart = machineCpu();
  const loadAverageAtStart = os.loadavg()[0];
  loopDelay.enable();
  log(`load: ${planned} notifications in ${requestsPlanned} requests, ${config.rate} notifications/s = ${requestRate.toFixed(requestRate % 1 ? 1 : 0)} requests/s`);
  const loadStarted = performance.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(requestsPlanned, Math.floor(((performance.now() - loadStarted) / 1000) * requestRate));
      while (sent < due) send(ops[sent]);
      if (sent >= requestsPlanned) {
        clearInterval(timer);
        resolve();
      }
    }, 5);
  });
  const lastSent = performance.now();
  while (inFlight > 0 && performance.now() - lastSent < 120_000) await sleep(20);
  const loadEnded = performance.now();
  const loadSeconds = (loadEnded - loadStarted) / 1000;
  const serverCpu = cpuSeconds(server.pid) - serverCpuStart;
  const benchCpu = process.cpuUsage(benchCpuStart);
  const machineEnd = machineCpu();
  const pgCpuEnd = backendCpu(await backendPids());
  let postgresCpu = 0;
  for (const [pid, end] of pgCpuEnd) postgresCpu += end - (pgCpuStart.get(pid) ?? 0);
  loopDelay.disable();
  if (config.profile && server.inspector) {
    const file = path.join(ROOT, 'bench/results', `${new Date().toISOString().slice(0, 19).replaceAll(':', '')}-websocket-${kind}.cpuprofile`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(await server.inspector.stopProfile()));
    log(`CPU profile: ${path.relative(ROOT, file)}`);
  }
  log(`load done in ${loadSeconds.toFixed(1)} s; waiting up to ${config.lostAfterMs} ms for the last deliveries`);

  // --- drain: every created notification gets lostAfterMs after its response to arrive
  const createdKeys: number[] = [];
  for (const op of ops) for (const key of op.keys) if (outcome[key] === 2) createdKeys.push(key);
  for (;;) {
    const missing = createdKeys.some((key) => arrivedAt[key] === 0);
    if (!missing || performance.now() - lastResponse > config.lostAfterMs) break;
    await sleep(50);
  }
  const rssAfterLoad = rssKiB(server.pid);
  const peakRss = peakRssKiB(server.pid);

  // --- graceful shutdown with every client still connected: each should get 1001 "going away"
  shuttingDown = true;
  const shutdownStarted = performance.now();
  await server.stop();
  const shutdownSeconds = (performance.now() - shutdownStarted) / 1000;
  await sleep(200);
  shuttingDown = false;
  log(`server stopped with ${connection.latencies.length} clients connected in ${shutdownSeconds.toFixed(1)} s`);

  const fromSend: number[] = [];
  const fromResponse: number[] = [];
  let late = 0;
  let lost = 0;
  for (const key of createdKeys) {
    if (arrivedAt[key] === 0) {
      lost++;
      continue;
    }
    if (arrivedAt[key] - respondedAt[key] > config.lostAfterMs) late++;
    fromSend.push(arrivedAt[key] - sentAt[key]);
    fromResponse.push(arrivedAt[key] - respondedAt[key]);
  }

  const bucketMs = 5000;
  const timeline: RunResult['timeline'] = [];
  const buckets = Math.max(1, Math.ceil((config.durationS * 1000) / bucketMs));
  const sentKeys = ops.flatMap((op) => op.keys).filter((key) => outcome[key] !== 0);
  const bucketOf = (key: number) => Math.min(buckets - 1, Math.floor((sentAt[key] - loadStarted) / bucketMs));
  for (let bucket = 0, from = 0; bucket < buckets; bucket++, from += bucketMs) {
    const inBucket = sentKeys.filter((key) => bucketOf(key) === bucket);
    const latencies = inBucket.filter((key) => arrivedAt[key] > 0).map((key) => arrivedAt[key] - sentAt[key]);
    const summary = summarize(latencies);
    timeline.push({
      from: from / 1000,
      sent: inBucket.length,
      created: inBucket.filter((key) => outcome[key] === 2).length,
      delivered: latencies.length,
      p50: summary.p50,
      p99: summary.p99,
    });
  }

  const created = createdKeys.length;
  const benchCpuSeconds = (benchCpu.user + benchCpu.system) / 1e6;
  const machinePercent = ((machineEnd.busy - machineStart.busy) / (machineEnd.total - machineStart.total)) * 100;
  const requestsSucceeded = ops.slice(0, sent).filter((op) => outcome[op.keys[0]] === 2).length;
  const result: RunResult = {
    kind,
    mix: mixLabel(),
    perRequest,
    databaseVersion: fixture.databaseVersion,
    fixtureSeconds,
    clients: fixture.users.length,
    connected: connection.latencies.length,
    connectFailures: connection.failures.length,
    connectSeconds,
    connectLatency: summarize(connection.latencies),
    planned,
    sent: sentNotifications,
    created,
    requestsPlanned,
    requestsSent: sent,
    requestsSucceeded,
    httpErrors: sent - requestsSucceeded,
    httpErrorKinds,
    loadSeconds,
    sendRate: sentNotifications / ((lastSent - loadStarted) / 1000),
    createdRate: created / loadSeconds,
    httpLatency: summarize(httpLatencies),
    delivered: created - lost,
    lost,
    late,
    duplicates,
    misdelivered,
    unmatched,
    fromSend: summarize(fromSend),
    fromResponse: summarize(fromResponse),
    rssBeforeKiB: before.rss,
    rssAfterKiB: after.rss,
    heapBeforeBytes: before.heap,
    heapAfterBytes: after.heap,
    rssAfterLoadKiB: rssAfterLoad,
    peakRssKiB: peakRss,
    serverCpuPercent: (serverCpu / loadSeconds) * 100,
    postgresCpuPercent: kind === 'postgres' ? (postgresCpu / loadSeconds) * 100 : Number.NaN,
    benchCpuPercent: (benchCpuSeconds / loadSeconds) * 100,
    machineCpuPercent: machinePercent,
    otherCpuPercent: machinePercent * os.cpus().length - ((serverCpu + benchCpuSeconds + (kind === 'postgres' ? postgresCpu : 0)) / loadSeconds) * 100,
    loadAverage: loadAverageAtStart,
    benchLoopDelayP99: loopDelay.percentile(99) / 1e6,
    benchLoopDelayMax: loopDelay.max / 1e6,
    unexpectedCloses,
    shutdownSeconds,
    shutdownCloses,
    serverLogLines: server.output.lines,
    serverWarnings: server.output.warnings,
    serverLastLines: [...server.output.last],
    timeline,
  };

  // --- tear down in reverse: sockets, server, database
  while (cleanups.length > 0) await cleanups.pop()!().catch((error: Error) => log(`cleanup: ${error.message}`));
  return result;
}

// ---------------------------------------------------------------------------------------------
// Report.

const pct = (value: number) => (Number.isFinite(value) ? `${value.toFixed(0)} %` : '–');
const perSecond = (value: number) => `${value.toFixed(value < 100 ? 1 : 0)}/s`;
const latencyLine = (summary: Summary) => `${ms(summary.p50)} / ${ms(summary.p95)} / ${ms(summary.p99)} / ${ms(summary.max)}`;

function table(results: RunResult[]): string {
  const rows: [string, (result: RunResult) => string][] = [
    ['database', (r) => r.kind],
    ['clients connected', (r) => `${r.connected} / ${r.clients}${r.connectFailures ? ` (${r.connectFailures} failed)` : ''}`],
    [`connect time (all, ${config.connectConcurrency} handshakes at a time)`, (r) => `${r.connectSeconds.toFixed(1)} s`],
    ['handshake p50 / p99', (r) => `${ms(r.connectLatency.p50)} / ${ms(r.connectLatency.p99)}`],
    ['mix (BENCH_MIX): request, notifications per request', (r) => r.mix],
    ['notifications planned / sent / created', (r) => `${r.planned} / ${r.sent} / ${r.created}`],
    ['requests planned / sent / succeeded', (r) => `${r.requestsPlanned} / ${r.requestsSent} / ${r.requestsSucceeded}`],
    [
      'offered rate / achieved creation rate, notifications (requests)',
      (r) => `${r.sendRate.toFixed(0)}/s / ${r.createdRate.toFixed(0)}/s (${perSecond(r.sendRate / r.perRequest)} / ${perSecond(r.createdRate / r.perRequest)})`,
    ],
    ['HTTP errors (failed requests)', (r) => `${r.httpErrors}${r.httpErrors ? ` (${Object.entries(r.httpErrorKinds).map(([kind, n]) => `${n}× ${kind}`).join('; ')})` : ''}`],
    ['HTTP request latency (per request) p50 / p95 / p99 / max', (r) => latencyLine(r.httpLatency)],
    ['delivered / lost (> ' + config.lostAfterMs / 1000 + ' s)', (r) => `${r.delivered} / ${r.lost}${r.late ? ` (+${r.late} late)` : ''}`],
    ['duplicates / wrong recipient / unmatched', (r) => `${r.duplicates} / ${r.misdelivered} / ${r.unmatched}`],
    ['delivery latency from request sent p50 / p95 / p99 / max', (r) => latencyLine(r.fromSend)],
    ['delivery latency from response p50 / p95 / p99 / max', (r) => latencyLine(r.fromResponse)],
    ['server RSS before / after connecting', (r) => `${mib(r.rssBeforeKiB)} / ${mib(r.rssAfterKiB)}`],
    [
      'memory per connection (RSS delta / clients)',
      (r) => `${((r.rssAfterKiB - r.rssBeforeKiB) / Math.max(1, r.connected)).toFixed(1)} KiB${r.kind === 'pglite' ? ' (includes PGlite\'s WASM memory: not meaningful)' : ''}`,
    ],
    ['V8 heap per connection', (r) => (Number.isFinite(r.heapAfterBytes) ? `${((r.heapAfterBytes - r.heapBeforeBytes) / 1024 / Math.max(1, r.connected)).toFixed(1)} KiB` : '–')],
    ['server RSS after load / peak', (r) => `${mib(r.rssAfterLoadKiB)} / ${mib(r.peakRssKiB)}`],
    ['CPU during load: server / PostgreSQL backends / bench (of one core)', (r) => `${pct(r.serverCpuPercent)} / ${pct(r.postgresCpuPercent)} / ${pct(r.benchCpuPercent)}`],
    [`machine CPU during load (all ${os.cpus().length} cores)`, (r) => pct(r.machineCpuPercent)],
    ['CPU of other processes on the machine during load / 1-min load average at start', (r) => `${pct(r.otherCpuPercent)} / ${r.loadAverage.toFixed(1)}`],
    ['bench event-loop delay p99 / max', (r) => `${ms(r.benchLoopDelayP99)} / ${ms(r.benchLoopDelayMax)}`],
    ['unexpected socket closes', (r) => (Object.keys(r.unexpectedCloses).length ? Object.entries(r.unexpectedCloses).map(([code, n]) => `${n}× ${code}`).join(', ') : '0')],
    ['graceful shutdown (SIGTERM) with all clients connected: exit time, closes received', (r) => `${r.shutdownSeconds.toFixed(1)} s, ${Object.entries(r.shutdownCloses).map(([code, n]) => `${n}× ${code}`).join(', ') || 'none'}`],
    ['server warnings / log lines', (r) => `${r.serverWarnings} / ${r.serverLogLines}`],
  ];
  const lines = [`| metric | ${results.map((r) => r.kind).join(' | ')} |`, `|---|${results.map(() => '---:|').join('')}`];
  for (const [label, value] of rows.slice(1)) lines.push(`| ${label} | ${results.map(value).join(' | ')} |`);
  return lines.join('\n');
}

function timelineTable(result: RunResult): string {
  const lines = ['| second | sent | created | delivered | p50 | p99 |', '|---:|---:|---:|---:|---:|---:|'];
  for (const row of result.timeline) lines.push(`| ${row.from}–${row.from + 5} | ${row.sent} | ${row.created} | ${row.delivered} | ${ms(row.p50)} | ${ms(row.p99)} |`);
  return lines.join('\n');
}

function machine(results: RunResult[]): string {
  const cpus = os.cpus();
  return [
    `- CPU: ${cpus.length} × ${cpus[0]?.model ?? 'unknown'}; memory ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB; ${os.type()} ${os.release()}`,
    `- Node.js ${process.version}`,
    ...results.map((r) => `- ${r.kind}: ${r.databaseVersion.split(',')[0]}${r.kind === 'postgres' ? ' (same machine, 127.0.0.1:5432)' : ' (in the server process)'}`),
    `- server: one process, \`node --import tsx apps/server/src/server.ts\`${SERVER_ROOT === ROOT ? '' : ` of ${SERVER_ROOT}`} (LOG_LEVEL=warn, DB_POOL_SIZE=${process.env.DB_POOL_SIZE ?? '10 (default)'}), inspector attached for forced GCs`,
    `- bench: one process on the same machine (clients, API load and measurement share the ${cpus.length} cores with the server and PostgreSQL); ` +
      `${config.httpSockets} keep-alive HTTP connections for the API load, ${config.connectConcurrency} handshakes at a time`,
  ].join('\n');
}

function mixDescription(): string {
  const spread = `spread round-robin over the ${managerCount.toLocaleString('en-US')} managers and, for each, over the members of their team (${memberCount.toLocaleString('en-US')} connected team members in all)`;
  switch (config.mix) {
    case 'batch':
      return (
        `Mix \`batch\`: each request is a manager creating one major task with ${config.batch} subtasks in one of their projects (\`POST /api/major-tasks/\`, as the Create Task screen does), ` +
        `each subtask assigned to a different member of the manager's team, so one request makes ${config.batch} task_assignment notifications, written in one transaction ` +
        `and pushed to ${config.batch} different sockets; ${perSecond(config.rate / config.batch).replace('/s', ' requests/s')}, ${spread}.`
      );
    case 'create':
      return `Mix \`create\`: each request is a manager creating one subtask for a team member (\`POST /api/subtasks/\`), 1 task_assignment notification per request, ${spread}.`;
    case 'review':
      return 'Mix `review`: each request is a manager approving or declining one subtask waiting for approval (`PATCH /api/subtasks/{id}/`), 1 task_approved / task_declined notification per request, to its assignee (round-robin over the team members).';
    case 'mixed':
      return (
        'Mix `mixed`: alternately a manager creating a subtask for a team member (`POST /api/subtasks/`, task_assignment) and approving or declining one waiting for approval ' +
        `(\`PATCH /api/subtasks/{id}/\`, task_approved / task_declined), 1 notification per request, ${spread}.`
      );
  }
}

function markdown(results: RunResult[], started: Date): string {
  const parts = [
    `# WebSocket benchmark — ${started.toISOString().slice(0, 10)}`,
    '',
    `\`npx tsx bench/ws/ws-bench.ts\` (BENCH_DB=${process.env.BENCH_DB ?? 'postgres'}, BENCH_MIX=${config.mix}` +
      `${config.mix === 'batch' ? `, BENCH_BATCH=${config.batch}` : ''}): ${config.clients} users each with one WebSocket to ` +
      `\`/ws/notifications/{id}/{email}/\`, then ${config.rate} notifications/s for ${config.durationS} s created through the API. ${mixDescription()} ` +
      'Every notification names its subtask (\'wsb-<n>\'), by which it is matched to its request and recipient and timed: latency is the time the message reaches its recipient\'s socket ' +
      'minus the time its request was sent (and minus the time its response arrived; negative when the push beats the response). ' +
      `A notification not delivered ${config.lostAfterMs / 1000} s after its response counts as lost. Notification counts, rates and latencies are per notification; ` +
      'HTTP errors and request latency per request. Memory readings follow a forced full GC and a pause.',
    '',
    '## Machine',
    '',
    machine(results),
    '',
    '## Results',
    '',
    table(results),
    '',
  ];
  const busy = results.filter((r) => r.otherCpuPercent > 20);
  if (busy.length > 0) {
    parts.push(
      `**The machine was shared during this run:** other processes used ${busy.map((r) => `${pct(r.otherCpuPercent)} of one core (${r.kind})`).join(', ')} ` +
        'while the load ran, so throughput and latency are lower than on an otherwise idle machine.',
      '',
    );
  }
  for (const result of results) {
    parts.push(`### Delivery over time (${result.kind}, notifications by when their request was sent; latency from request sent)`, '', timelineTable(result), '');
    if (result.serverLastLines.length > 0) parts.push(`Last server log lines (${result.kind}):`, '', '```', ...result.serverLastLines, '```', '');
  }
  return parts.join('\n');
}

async function main() {
  if (!ensureOpenFileLimit()) return;
  const started = new Date();
  const results: RunResult[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  let interrupted = false;
  const interrupt = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    log('interrupted: cleaning up (Ctrl-C again to quit at once)');
    void (async () => {
      while (cleanups.length > 0) await cleanups.pop()!().catch(() => {});
      process.exit(130);
    })();
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  try {
    for (const kind of config.databases) results.push(await run(kind, cleanups));
  } finally {
    while (cleanups.length > 0) await cleanups.pop()!().catch((error: Error) => log(`cleanup: ${error.message}`));
    agent.destroy();
  }
  console.log(`\n${table(results)}\n`);
  for (const result of results) {
    console.log(`${result.kind}, by 5 s of sending:\n${timelineTable(result)}\n`);
    if (result.serverLastLines.length > 0) console.log(`last server log lines (${result.kind}):\n${result.serverLastLines.join('\n')}\n`);
  }
  if (config.write) {
    const file = path.join(ROOT, 'bench/results', `${started.toLocaleDateString('en-CA')}-websocket.md`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, markdown(results, started));
    log(`wrote ${path.relative(ROOT, file)}`);
  }
  process.exit(results.every((r) => r.lost === 0 && r.httpErrors === 0 && r.connected === r.clients) ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
