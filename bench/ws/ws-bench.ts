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
 *   BENCH_WRITE=0                   do not write bench/results/websocket.md
 *   BENCH_KEEP_DATA=1               keep PGlite's data directory after the run (to inspect it; the log names it)
 *   BENCH_BEFORE_DIR                an earlier checkout to start instead of this one (see bench/lib/server.ts)
 *   DB_POOL_SIZE                    passed to the server as is
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { openDatabase, type Database } from '../../apps/server/src/platform';
import { createTokens } from '../../apps/server/src/features/auth/auth.tokens';
import { hashPassword } from '../../apps/server/src/lib/passwords';
import { databaseUrl, withAdmin } from '../lib/large-database';
import { beforeCheckout, ensureServerBuilt, freePort, startServer, thisCheckout } from '../lib/server';
import { writeFixture, type Fixture, type FixtureUser } from './fixture';
import { connectInspector, type Inspector } from '../lib/inspector';
import { cpuSeconds, machineCpu, mib, ms, openFileLimits, peakRssKiB, rssKiB, summarize, type Summary } from './metrics';

const ROOT = path.resolve(import.meta.dirname, '../..');
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
// The server process: bench/lib/server.ts starts it (compiled, as `npm start` runs it), with an
// inspector for forced GCs and heap readings.

interface ServerProcess {
  pid: number;
  port: number;
  inspector?: Inspector;
  output: { lines: number; warnings: number; last: string[] };
  stop(): Promise<void>;
}

const INSPECTOR_LINE = /^(Debugger (listening|ending|attached)|For help, see|Waiting for the debugger)/;

async function startBenchServer(kind: Kind, where: { url?: string; dataDir?: string }): Promise<ServerProcess> {
  const inspectPort = await freePort();
  const server = await startServer({
    env: { ...(kind === 'postgres' ? { DATABASE_URL: where.url } : { DATA_DIR: where.dataDir }), JWT_SECRET },
    checkout: beforeCheckout() ?? thisCheckout,
    nodeArgs: [`--inspect=127.0.0.1:${inspectPort}`],
    stdio: 'collect',
  });
  const inspector = await connectInspector(inspectPort).catch((error: Error) => {
    log(`no inspector (${error.message}): memory readings without a forced GC`);
    return undefined;
  });
  log(`server pid ${server.pid} on port ${server.port} is up after ${(server.startMs / 1000).toFixed(1)} s`);
  return {
    pid: server.pid,
    port: server.port,
    inspector,
    get output() {
      const lines = server.output().filter((line) => !INSPECTOR_LINE.test(line));
      return {
        lines: lines.length,
        warnings: lines.filter((line) => /"level":(40|50|60)/.test(line) || /warn|error/i.test(line)).length,
        last: lines.slice(-20).map((line) => (line.length > 400 ? `${line.slice(0, 400)}…` : line)),
      };
    },
    async stop() {
      inspector?.close();
      await server.stop();
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

/** What one run needs to know of its database: where the server finds it, and the fixture written to it. */
interface PreparedDatabase {
  where: { url?: string; dataDir?: string };
  databaseName: string;
  fixture: Fixture;
  fixtureSeconds: number;
}

/** A new database with the fixture, written before the server starts (PGlite is one process per data directory). */
async function prepareDatabase(kind: Kind, reviews: number, cleanups: (() => Promise<void>)[]): Promise<PreparedDatabase> {
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
      if (process.env.BENCH_KEEP_DATA === '1') return log(`kept ${where.dataDir}`);
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
  return { where, databaseName, fixture, fixtureSeconds };
}

/** Access tokens minted as the server does (auth.service issueTokenPair): one per user's login family. */
function mintAccessTokens(fixture: Fixture): Map<number, string> {
  const tokens = createTokens(JWT_SECRET);
  return new Map(fixture.users.map((user) => [user.id, tokens.signAccess({ userId: user.id, companyId: fixture.companyId, family: user.family })]));
}

/** The fixture's admin can sign in and a minted token is accepted: the run would measure nothing otherwise. */
async function probeServer(port: number, fixture: Fixture, accessOf: Map<number, string>) {
  const login = await request(port, 'POST', '/api/token/', JSON.stringify({ role: 'admin', email: 'admin@bench.test', password: PASSWORD, company_id: fixture.companyId }));
  if (login.status !== 200) throw new Error(`The fixture's admin cannot log in: ${login.status} ${login.body}`);
  const probe = await request(port, 'GET', '/api/notifications/', undefined, accessOf.get(fixture.users[fixture.users.length - 1].id));
  if (probe.status !== 200) throw new Error(`A minted access token is refused: ${probe.status} ${probe.body}`);
}

/**
 * Every notification's fate, by its key (the subtask name 'wsb-<key>' is in its text): when its
 * request was sent and answered, when it arrived, for whom it was meant, and what became of its request.
 */
function createLedger(capacity: number) {
  const ledger = {
    sentAt: new Float64Array(capacity),
    respondedAt: new Float64Array(capacity),
    arrivedAt: new Float64Array(capacity),
    expectedUser: new Int32Array(capacity),
    /** 0 not sent, 1 in flight, 2 created, 3 failed. */
    outcome: new Uint8Array(capacity),
    duplicates: 0,
    misdelivered: 0,
    unmatched: 0,
    onMessage(userId: number, data: Buffer) {
      const now = performance.now();
      const at = data.indexOf(marker);
      if (at < 0) return void ledger.unmatched++;
      let key = 0;
      for (let i = at + marker.length; i < data.length; i++) {
        const c = data[i];
        if (c < 48 || c > 57) break;
        key = key * 10 + c - 48;
      }
      if (key >= capacity || ledger.expectedUser[key] === 0) return void ledger.unmatched++;
      if (ledger.expectedUser[key] !== userId) return void ledger.misdelivered++;
      if (ledger.arrivedAt[key] > 0) return void ledger.duplicates++;
      ledger.arrivedAt[key] = now;
    },
  };
  const marker = Buffer.from(`'${SUBTASK_PREFIX}`);
  return ledger;
}
type Ledger = ReturnType<typeof createLedger>;

/** The users' WebSockets: connected a few handshakes at a time; closes are tallied by phase. */
function createClients(port: number, accessOf: Map<number, string>, ledger: Ledger, cleanups: (() => Promise<void>)[]) {
  const clients = {
    phase: 'running' as 'running' | 'closing' | 'shutdown',
    unexpectedCloses: {} as Record<string, number>,
    shutdownCloses: {} as Record<string, number>,
    sockets: [] as WebSocket[],
    async connectAll(users: FixtureUser[]) {
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
    },
    /** Closes every socket normally and waits for them (the warm-up's). */
    async closeAll() {
      clients.phase = 'closing';
      await Promise.all(clients.sockets.splice(0).map((socket) => new Promise((resolve) => (socket.once('close', resolve), socket.close(1000)))));
      clients.phase = 'running';
    },
  };
  function connect(user: FixtureUser): Promise<number> {
    const url = `ws://127.0.0.1:${port}/ws/notifications/${user.id}/${encodeURIComponent(user.email)}/?token=${encodeURIComponent(accessOf.get(user.id)!)}`;
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const socket = new WebSocket(url, { perMessageDeflate: false, handshakeTimeout: 60_000 });
      let open = false;
      socket.on('message', (data) => ledger.onMessage(user.id, data as Buffer));
      socket.once('unexpected-response', (_request, response) => {
        reject(new Error(`upgrade refused with ${response.statusCode}`));
        socket.terminate();
      });
      socket.on('error', (error) => {
        if (!open) reject(error);
      });
      socket.once('close', (code) => {
        const tally = clients.phase === 'shutdown' ? clients.shutdownCloses : clients.phase === 'closing' ? undefined : clients.unexpectedCloses;
        if (open && tally) tally[code] = (tally[code] ?? 0) + 1;
      });
      socket.once('open', () => {
        open = true;
        clients.sockets.push(socket);
        resolve(performance.now() - started);
      });
    });
  }
  cleanups.push(async () => {
    clients.phase = 'closing';
    for (const socket of clients.sockets) socket.terminate();
  });
  return clients;
}

/** The server's memory once things have settled: a pause, a forced full GC, another pause. */
async function settledMemory(server: ServerProcess) {
  await sleep(config.settleMs / 2);
  await server.inspector?.collectGarbage();
  await sleep(config.settleMs / 2);
  return { rss: rssKiB(server.pid), heap: (await server.inspector?.heapUsedBytes()) ?? Number.NaN };
}

/** Every request of the run, planned up front so that the load's timer only sends. */
function planOperations(fixture: Fixture, accessOf: Map<number, string>, requestsPlanned: number): Op[] {
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
  return ops;
}

/** What the load phase measured besides the ledger. */
interface LoadFigures {
  sent: number;
  sentNotifications: number;
  httpErrorKinds: Record<string, number>;
  httpLatencies: number[];
  loadStarted: number;
  lastSent: number;
  lastResponse: number;
  loadSeconds: number;
  serverCpu: number;
  postgresCpu: number;
  benchCpuSeconds: number;
  machinePercent: number;
  loadAverage: number;
  loopDelayP99: number;
  loopDelayMax: number;
}

/**
 * The load: an open-loop timer sends what is due since the start, so a slow server cannot slow the
 * offered rate down; CPU of the server, its PostgreSQL backends, this process and the machine is
 * taken around it.
 */
async function driveLoad(kind: Kind, server: ServerProcess, databaseName: string, ops: Op[], ledger: Ledger): Promise<LoadFigures> {
  const requestsPlanned = ops.length;
  const requestRate = config.rate / perRequest;
  const figures = { sent: 0, sentNotifications: 0, httpErrorKinds: {} as Record<string, number>, httpLatencies: [] as number[], lastResponse: 0 };
  let inFlight = 0;
  function send(op: Op) {
    const started = performance.now();
    op.keys.forEach((key, index) => {
      ledger.sentAt[key] = started;
      ledger.expectedUser[key] = op.recipients[index];
      ledger.outcome[key] = 1;
    });
    inFlight++;
    figures.sent++;
    figures.sentNotifications += op.keys.length;
    const fail = (why: string) => {
      for (const key of op.keys) ledger.outcome[key] = 3;
      figures.httpErrorKinds[why] = (figures.httpErrorKinds[why] ?? 0) + 1;
    };
    const req = http.request(
      {
        host: '127.0.0.1',
        port: server.port,
        method: op.method,
        path: op.path,
        agent,
        headers: { authorization: `Bearer ${op.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(op.body) },
      },
      (response) => {
        const done = performance.now();
        for (const key of op.keys) ledger.respondedAt[key] = done;
        figures.lastResponse = done;
        figures.httpLatencies.push(done - started);
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) {
          for (const key of op.keys) ledger.outcome[key] = 2;
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
      figures.lastResponse = performance.now();
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
  const loadAverage = os.loadavg()[0];
  loopDelay.enable();
  log(`load: ${requestsPlanned * perRequest} notifications in ${requestsPlanned} requests, ${config.rate} notifications/s = ${requestRate.toFixed(requestRate % 1 ? 1 : 0)} requests/s`);
  const loadStarted = performance.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(requestsPlanned, Math.floor(((performance.now() - loadStarted) / 1000) * requestRate));
      while (figures.sent < due) send(ops[figures.sent]);
      if (figures.sent >= requestsPlanned) {
        clearInterval(timer);
        resolve();
      }
    }, 5);
  });
  const lastSent = performance.now();
  while (inFlight > 0 && performance.now() - lastSent < 120_000) await sleep(20);
  const loadSeconds = (performance.now() - loadStarted) / 1000;
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
  return {
    ...figures,
    loadStarted,
    lastSent,
    loadSeconds,
    serverCpu,
    postgresCpu,
    benchCpuSeconds: (benchCpu.user + benchCpu.system) / 1e6,
    machinePercent: ((machineEnd.busy - machineStart.busy) / (machineEnd.total - machineStart.total)) * 100,
    loadAverage,
    loopDelayP99: loopDelay.percentile(99) / 1e6,
    loopDelayMax: loopDelay.max / 1e6,
  };
}

/** Waits until every created notification has arrived, or lostAfterMs has passed since the last response; answers their keys. */
async function awaitDeliveries(ops: Op[], ledger: Ledger, lastResponse: () => number): Promise<number[]> {
  const createdKeys: number[] = [];
  for (const op of ops) for (const key of op.keys) if (ledger.outcome[key] === 2) createdKeys.push(key);
  for (;;) {
    const missing = createdKeys.some((key) => ledger.arrivedAt[key] === 0);
    if (!missing || performance.now() - lastResponse() > config.lostAfterMs) break;
    await sleep(50);
  }
  return createdKeys;
}

/** Delivery latencies and losses of the created notifications, overall and by 5 s of sending. */
function deliveryFigures(ops: Op[], ledger: Ledger, createdKeys: number[], loadStarted: number) {
  const fromSend: number[] = [];
  const fromResponse: number[] = [];
  let late = 0;
  let lost = 0;
  for (const key of createdKeys) {
    if (ledger.arrivedAt[key] === 0) {
      lost++;
      continue;
    }
    if (ledger.arrivedAt[key] - ledger.respondedAt[key] > config.lostAfterMs) late++;
    fromSend.push(ledger.arrivedAt[key] - ledger.sentAt[key]);
    fromResponse.push(ledger.arrivedAt[key] - ledger.respondedAt[key]);
  }
  const bucketMs = 5000;
  const timeline: RunResult['timeline'] = [];
  const buckets = Math.max(1, Math.ceil((config.durationS * 1000) / bucketMs));
  const sentKeys = ops.flatMap((op) => op.keys).filter((key) => ledger.outcome[key] !== 0);
  const bucketOf = (key: number) => Math.min(buckets - 1, Math.floor((ledger.sentAt[key] - loadStarted) / bucketMs));
  for (let bucket = 0, from = 0; bucket < buckets; bucket++, from += bucketMs) {
    const inBucket = sentKeys.filter((key) => bucketOf(key) === bucket);
    const latencies = inBucket.filter((key) => ledger.arrivedAt[key] > 0).map((key) => ledger.arrivedAt[key] - ledger.sentAt[key]);
    const summary = summarize(latencies);
    timeline.push({
      from: from / 1000,
      sent: inBucket.length,
      created: inBucket.filter((key) => ledger.outcome[key] === 2).length,
      delivered: latencies.length,
      p50: summary.p50,
      p99: summary.p99,
    });
  }
  return { fromSend: summarize(fromSend), fromResponse: summarize(fromResponse), late, lost, timeline };
}

/** One run on one database: fixture, server, clients, load, deliveries, shutdown, then every figure. */
async function run(kind: Kind, cleanups: (() => Promise<void>)[]): Promise<RunResult> {
  log(`=== ${kind}: ${config.clients} clients, ${config.rate} notifications/s for ${config.durationS} s (${mixLabel()}) ===`);
  agent.destroy();
  agent = new http.Agent({ keepAlive: true, maxSockets: config.httpSockets });
  const requestsPlanned = Math.max(1, Math.round((config.rate * config.durationS) / perRequest));
  const planned = requestsPlanned * perRequest;
  const reviews = config.mix === 'review' ? planned : config.mix === 'mixed' ? Math.floor(planned / 2) : 0;

  const { where, databaseName, fixture, fixtureSeconds } = await prepareDatabase(kind, reviews, cleanups);
  const accessOf = mintAccessTokens(fixture);
  const server = await startBenchServer(kind, where);
  cleanups.push(() => server.stop().then(() => log('server stopped')));
  await probeServer(server.port, fixture, accessOf);

  const ledger = createLedger(Math.max(...fixture.pending.map((row) => row.key), 0) + planned + 2);
  const clients = createClients(server.port, accessOf, ledger, cleanups);
  // Warm the upgrade path up (route, hooks, ws internals), then leave: the baseline is a server that has served sockets.
  await clients.connectAll(fixture.users.slice(0, Math.min(50, fixture.users.length)));
  await clients.closeAll();
  const before = await settledMemory(server);
  log(`server RSS before connecting: ${mib(before.rss)} (V8 heap ${mib(before.heap / 1024)})`);
  const connectStarted = performance.now();
  const connection = await clients.connectAll(fixture.users);
  const connectSeconds = (performance.now() - connectStarted) / 1000;
  log(`connected ${connection.latencies.length}/${fixture.users.length} in ${connectSeconds.toFixed(1)} s${connection.failures.length ? `; failures: ${[...new Set(connection.failures)].slice(0, 3).join('; ')}` : ''}`);
  const after = await settledMemory(server);
  log(`server RSS after connecting: ${mib(after.rss)} (V8 heap ${mib(after.heap / 1024)}): ${((after.rss - before.rss) / Math.max(1, connection.latencies.length)).toFixed(1)} KiB per connection`);

  const ops = planOperations(fixture, accessOf, requestsPlanned);
  const load = await driveLoad(kind, server, databaseName, ops, ledger);
  const createdKeys = await awaitDeliveries(ops, ledger, () => load.lastResponse);
  const rssAfterLoad = rssKiB(server.pid);
  const peakRss = peakRssKiB(server.pid);

  // Graceful shutdown with every client still connected: each should get 1001 "going away".
  clients.phase = 'shutdown';
  const shutdownStarted = performance.now();
  await server.stop();
  const shutdownSeconds = (performance.now() - shutdownStarted) / 1000;
  await sleep(200);
  clients.phase = 'running';
  log(`server stopped with ${connection.latencies.length} clients connected in ${shutdownSeconds.toFixed(1)} s`);

  const delivery = deliveryFigures(ops, ledger, createdKeys, load.loadStarted);
  const created = createdKeys.length;
  const requestsSucceeded = ops.slice(0, load.sent).filter((op) => ledger.outcome[op.keys[0]] === 2).length;
  const output = server.output;
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
    sent: load.sentNotifications,
    created,
    requestsPlanned,
    requestsSent: load.sent,
    requestsSucceeded,
    httpErrors: load.sent - requestsSucceeded,
    httpErrorKinds: load.httpErrorKinds,
    loadSeconds: load.loadSeconds,
    sendRate: load.sentNotifications / ((load.lastSent - load.loadStarted) / 1000),
    createdRate: created / load.loadSeconds,
    httpLatency: summarize(load.httpLatencies),
    delivered: created - delivery.lost,
    lost: delivery.lost,
    late: delivery.late,
    duplicates: ledger.duplicates,
    misdelivered: ledger.misdelivered,
    unmatched: ledger.unmatched,
    fromSend: delivery.fromSend,
    fromResponse: delivery.fromResponse,
    rssBeforeKiB: before.rss,
    rssAfterKiB: after.rss,
    heapBeforeBytes: before.heap,
    heapAfterBytes: after.heap,
    rssAfterLoadKiB: rssAfterLoad,
    peakRssKiB: peakRss,
    serverCpuPercent: (load.serverCpu / load.loadSeconds) * 100,
    postgresCpuPercent: kind === 'postgres' ? (load.postgresCpu / load.loadSeconds) * 100 : Number.NaN,
    benchCpuPercent: (load.benchCpuSeconds / load.loadSeconds) * 100,
    machineCpuPercent: load.machinePercent,
    otherCpuPercent: load.machinePercent * os.cpus().length - ((load.serverCpu + load.benchCpuSeconds + (kind === 'postgres' ? load.postgresCpu : 0)) / load.loadSeconds) * 100,
    loadAverage: load.loadAverage,
    benchLoopDelayP99: load.loopDelayP99,
    benchLoopDelayMax: load.loopDelayMax,
    unexpectedCloses: clients.unexpectedCloses,
    shutdownSeconds,
    shutdownCloses: clients.shutdownCloses,
    serverLogLines: output.lines,
    serverWarnings: output.warnings,
    serverLastLines: output.last,
    timeline: delivery.timeline,
  };

  // Tear down in reverse: sockets, server, database.
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
    ...results.map((r) => `- ${r.kind}: ${r.databaseVersion.split(',')[0]}${r.kind === 'postgres' ? ' (same machine, 127.0.0.1:5432)' : beforeCheckout() ? ' (in the server process)' : ' (in the server process, on a thread of its own)'}`),
    `- server: one process, ${beforeCheckout() ? `\`node --import tsx apps/server/src/server.ts\` of ${beforeCheckout()!.root}` : '`node apps/server/dist/server.js` (what `npm start` runs)'} (LOG_LEVEL=warn, DB_POOL_SIZE=${process.env.DB_POOL_SIZE ?? '10 (default)'}), inspector attached for forced GCs`,
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
  if (!beforeCheckout()) ensureServerBuilt();
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
    const file = path.join(ROOT, 'bench/results', 'websocket.md');
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
