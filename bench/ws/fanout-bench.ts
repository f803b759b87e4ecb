/**
 * `npm run bench:fanout` — one change that notifies many people at once, over two instances.
 *
 * Two servers (compiled, as `npm start` runs them) on one fresh PostgreSQL database; N users of one
 * company each hold a WebSocket, half on each instance. Each member has a subtask due tomorrow; the
 * deadline-reminder sweep (what runs every few minutes in production, here called once from this
 * process with the sweep's own code) then writes one notification per member, in its batches. Every
 * socket must receive its reminder: the figures are the delivery latency from the notification's
 * commit (its `timestamp`) to its arrival, and from the sweep's start, at p50/p95/p99/max, per
 * socket count. Issue 40's goal: 10,000 sockets over two instances at p95 ≤ 500 ms, every message.
 * Writes bench/results/fanout.md.
 *
 * Options (environment): BENCH_SOCKETS (default 2000,10000), BENCH_LOST_AFTER_MS (default 30000),
 * BENCH_PG_URL (the admin connection), BENCH_BEFORE_DIR (an earlier checkout's servers instead; see
 * bench/lib/server.ts).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { openDatabase } from '../../apps/server/src/platform';
import { createTokens } from '../../apps/server/src/features/auth/auth.tokens';
import { runSweeps } from '../../apps/server/src/features/notifications/notifications.service';
import { hashPassword } from '../../apps/server/src/lib/passwords';
import { databaseUrl, postgresTransport, withAdmin } from '../lib/large-database';
import { beforeCheckout, ensureServerBuilt, repoRoot, startServer, thisCheckout, type RunningServer } from '../lib/server';
import { writeFixture, type FixtureUser } from './fixture';
import { summarize, type Summary } from './metrics';

const SOCKET_COUNTS = (process.env.BENCH_SOCKETS ?? '2000,10000').split(',').map(Number);
const LOST_AFTER_MS = Number(process.env.BENCH_LOST_AFTER_MS ?? 30_000);
const CONNECT_CONCURRENCY = 100;
const JWT_SECRET = `bench-${randomUUID()}-${randomUUID()}`;

interface Result {
  sockets: number;
  instances: string;
  sweepMs: number;
  created: number;
  delivered: number;
  fromCommit: Summary;
  fromSweep: Summary;
}

function connect(server: RunningServer, user: FixtureUser, token: string, onMessage: (data: Buffer) => void): Promise<WebSocket> {
  const url = `ws://127.0.0.1:${server.port}/ws/notifications/${user.id}/${encodeURIComponent(user.email)}/?token=${encodeURIComponent(token)}`;
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false, handshakeTimeout: 60_000 });
    socket.on('message', (data) => onMessage(data as Buffer));
    socket.once('unexpected-response', (_request, response) => reject(new Error(`upgrade refused with ${response.statusCode}`)));
    socket.once('error', reject);
    socket.once('open', () => resolve(socket));
  });
}

async function measure(sockets: number): Promise<Result> {
  const name = `siteboard_fanout_${process.pid}_${sockets}`;
  await withAdmin((client) => client.query(`drop database if exists ${name} with (force)`).then(() => client.query(`create database ${name}`)));
  const url = databaseUrl(name);
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 4 });
  const servers: RunningServer[] = [];
  const open: WebSocket[] = [];
  try {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const fixture = await writeFixture(database.db, {
      users: sockets + 1 + Math.ceil(sockets / 100),
      managers: Math.ceil(sockets / 100),
      pendingSubtasks: sockets,
      passwordHash: await hashPassword('bench-password'),
      companyName: `Fan-out ${sockets}`,
      subtaskPrefix: 'fan-',
      // Due tomorrow in the company's zone (UTC): the sweep below reminds every assignee.
      dueDate: tomorrow,
    });
    const checkout = beforeCheckout() ?? thisCheckout;
    const env = { DATABASE_URL: url, JWT_SECRET, DB_POOL_SIZE: '10', SWEEP_INTERVAL_SECONDS: '86400', REMINDER_LOCAL_HOUR: '23' };
    for (let i = 0; i < 2; i++) servers.push(await startServer({ env, checkout, stdio: 'collect' }));
    // The servers' own first sweep (5 s after start, at 23:00 local at the earliest) must find nothing to do before ours.
    await new Promise((resolve) => setTimeout(resolve, 6_000));

    const tokens = createTokens(JWT_SECRET);
    const members = fixture.users.filter((user) => user.role === 'team_member').slice(0, sockets);
    const arrivals = new Map<number, { at: number; timestamp: string }>();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONNECT_CONCURRENCY }, async () => {
        for (let index = next++; index < members.length; index = next++) {
          const user = members[index]!;
          const token = tokens.signAccess({ userId: user.id, companyId: fixture.companyId, family: user.family });
          open.push(
            await connect(servers[index % 2]!, user, token, (data) => {
              const message = JSON.parse(data.toString()) as { type: string; timestamp: string };
              if (message.type === 'deadline_reminder' && !arrivals.has(user.id)) arrivals.set(user.id, { at: Date.now(), timestamp: message.timestamp });
            }),
          );
        }
      }),
    );
    console.log(`${sockets} sockets connected (${servers.map((server) => server.origin).join(', ')})`);

    const sweepStarted = Date.now();
    const swept = await runSweeps(database.db, { now: new Date(), approvalDelayHours: 48, reminderLocalHour: 0 });
    const sweepMs = Date.now() - sweepStarted;
    const created = swept.swept ? swept.created : 0;
    const deadline = Date.now() + LOST_AFTER_MS;
    while (arrivals.size < members.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));

    const values = [...arrivals.values()];
    return {
      sockets,
      instances: servers.map((server) => `${server.origin}`).join(' + '),
      sweepMs,
      created,
      delivered: arrivals.size,
      fromCommit: summarize(values.map((arrival) => arrival.at - Date.parse(arrival.timestamp))),
      fromSweep: summarize(values.map((arrival) => arrival.at - sweepStarted)),
    };
  } finally {
    for (const socket of open) socket.terminate();
    for (const server of servers) await server.stop();
    await database.close();
    await withAdmin((client) => client.query(`drop database if exists ${name} with (force)`));
  }
}

async function main() {
  const checkout = beforeCheckout() ?? thisCheckout;
  ensureServerBuilt(checkout);
  const results: Result[] = [];
  for (const sockets of SOCKET_COUNTS) {
    const result = await measure(sockets);
    results.push(result);
    console.log(`${sockets}: ${result.delivered}/${result.created} delivered; p95 from commit ${Math.round(result.fromCommit.p95)} ms, from the sweep's start ${Math.round(result.fromSweep.p95)} ms`);
  }
  const ms = (value: number) => (Number.isNaN(value) ? '–' : String(Math.round(value)));
  const lines = [
    '# Fan-out: one change that notifies many, over two instances',
    '',
    `Run ${new Date().toISOString()} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, load average at the end ${os.loadavg().map((load) => load.toFixed(1)).join(', ')}; two servers (${checkout === thisCheckout ? 'this checkout' : checkout.root}) on one PostgreSQL database through ${postgresTransport()}, sockets split evenly between them, all clients and the sweep in this one process.`,
    "The change: the deadline-reminder sweep, run once, writes one notification per member (in its batches); each member's socket must receive theirs. Latency from the notification's creation (its timestamp: the start of the sweep transaction that wrote it) and from the sweep's start.",
    '',
    '| sockets | notifications created | delivered | sweep ms | from creation p50 / p95 / p99 / max ms | from the sweep\'s start p50 / p95 / p99 / max ms |',
    '|---:|---:|---:|---:|---|---|',
    ...results.map(
      (result) =>
        `| ${result.sockets} | ${result.created} | ${result.delivered} | ${result.sweepMs} | ${ms(result.fromCommit.p50)} / ${ms(result.fromCommit.p95)} / ${ms(result.fromCommit.p99)} / ${ms(result.fromCommit.max)} | ${ms(result.fromSweep.p50)} / ${ms(result.fromSweep.p95)} / ${ms(result.fromSweep.p99)} / ${ms(result.fromSweep.max)} |`,
    ),
    '',
  ];
  const file = path.join(repoRoot, 'bench/results/fanout.md');
  fs.writeFileSync(file, lines.join('\n'));
  console.log(`\n${lines.join('\n')}\nWritten to ${path.relative(repoRoot, file)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
