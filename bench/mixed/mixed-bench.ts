/**
 * `npm run bench:mixed` — reads while the same company writes (issue 40): what users feel.
 *
 * For each database (PostgreSQL, PGlite) and each data set (small: the demo company of
 * `npm run seed:demo`; large: `npm run seed:large`), the real server (compiled, as `npm start`
 * runs it) of this checkout and, with BENCH_BEFORE_DIR, of an earlier one, each on a database
 * seeded by its own code, take turns: 10 connections read a manager's and a team member's lists in
 * a closed loop while other people of the same company write at 0, 5 and 20 writes/s (comments by
 * the admin, status changes by the second manager, "mark read" by a second team member). Each
 * call's p50 and p99 are printed per write rate, with the before/after ratio and the
 * embedded/PostgreSQL ratio of p99, and the reads answered per second. Writes
 * bench/results/mixed.md.
 *
 * Options (environment): BENCH_DB=both|postgres|pglite, BENCH_DATA=both|small|large,
 * BENCH_DURATION seconds per run (default 20), BENCH_RATES (default 0,5,20), BENCH_CONNECTIONS
 * (readers, default 10), BENCH_SWEEP_WAIT_SECONDS (after a start, the longest wait for every
 * server's first notification sweep to end, as its metrics count it; default 60, 600 on the large
 * data, where it writes 86,084 notifications), BENCH_SETTLE_SECONDS (then this long more, for the embedded
 * maintenance it sets off; default 15), BENCH_BEFORE_DIR (see bench/lib/server.ts), BENCH_PG_URL,
 * BENCH_READ_LOADS (default `closed`): how the readers read, a comma list of `closed` (BENCH_CONNECTIONS
 * readers, each sending its next read as soon as the last is answered: the server at its capacity)
 * and numbers (that many reads a second arriving at random, Poisson, whatever is still outstanding:
 * what people feel at that traffic; each read's time counts from when it was due, so a stalled
 * server is not hidden by reads that were never sent),
 * BENCH_NODE_ARGS (node's own arguments for this checkout's server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`),
 * BENCH_CLIENT (`plain`, the default: every read downloads its answer; `browser`: each reader is a
 * device that keeps the last ETag and answer of each of its reads and sends If-None-Match, as the web
 * app's fetches do through the browser's HTTP cache; a server without ETags answers it in full),
 * BENCH_ACCEPT_ENCODING (what the readers accept, default a browser's `br, gzip, deflate`),
 * BENCH_TURNS (default 1): how many times each server runs each load, interleaved, reported as the
 * median of the turns' percentiles (one stall decides a single turn's p99),
 * BENCH_BEFORE_VARIANTS (`name:KEY=VALUE,…;…`): more servers of the earlier checkout with those
 * settings, each with its own after/… ratio (`nocache:ANSWER_CACHE=false` is the answer cache's own
 * share of a difference).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { databaseUrl, postgresTransport, withAdmin } from '../lib/large-database';
import { beforeVariants, benchNodeArgs, type Checkout, checkoutsToMeasure, ensureServerBuilt, freePort, repoRoot, type RunningServer, startServer, thisCheckout } from '../lib/server';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 20);
const RATES = (process.env.BENCH_RATES ?? '0,5,20').split(',').map(Number);
const READERS = Number(process.env.BENCH_CONNECTIONS ?? 10);
type ReadLoad = 'closed' | number;
const READ_LOADS: ReadLoad[] = (process.env.BENCH_READ_LOADS ?? 'closed').split(',').map((load) => (load.trim() === 'closed' ? 'closed' : Number(load)));
const describeLoad = (load: ReadLoad) => (load === 'closed' ? `${READERS} readers in a closed loop` : `${load} reads/s offered`);
const KINDS = (process.env.BENCH_DB ?? 'both') === 'both' ? (['postgres', 'pglite'] as const) : ([process.env.BENCH_DB] as ('postgres' | 'pglite')[]);
/** `plain`: every read downloads its answer; `browser`: reads revalidate as the web app's fetches do through the browser's HTTP cache. */
const CLIENT = process.env.BENCH_CLIENT === 'browser' ? 'browser' : 'plain';
/** What the readers accept: a browser's `br, gzip` by default (Node's fetch alone sends `gzip, deflate`). */
const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING ?? 'br, gzip, deflate';
/** How many times each server takes its turn at each load, interleaved: one stall decides a single turn's p99. */
const TURNS = Math.max(1, Number(process.env.BENCH_TURNS ?? 1));
const DATA_SETS = (process.env.BENCH_DATA ?? 'both') === 'both' ? (['small', 'large'] as const) : ([process.env.BENCH_DATA] as ('small' | 'large')[]);

interface DataSet {
  name: 'small' | 'large';
  seedScript: string;
  company: string;
  domain: string;
  password: string;
}
const DATA: Record<'small' | 'large', DataSet> = {
  small: { name: 'small', seedScript: 'seed:demo', company: 'SiteBoard Demo', domain: 'example.com', password: 'demo-password' },
  large: { name: 'large', seedScript: 'seed:large', company: 'Large Contractor 1', domain: 'c1.large.test', password: 'large-password' },
};

type Method = 'GET' | 'POST' | 'PATCH';
interface Request {
  method: Method;
  path: string;
  token: string;
  body?: unknown;
}

/**
 * What a browser's HTTP cache keeps of each read (BENCH_CLIENT=browser): the last ETag and answer
 * per browser, origin, token and path, sent back as If-None-Match; a 304 hands back the kept answer.
 * There are as many browsers as readers (each reader is one device of the manager or the member),
 * so a read revalidates what that device itself last read, not what any reader last read.
 */
const kept = new Map<string, { etag: string; text: string }>();

async function call<T>(origin: string, request: { method: Method; path: string; token?: string; body?: unknown }, browser = 0): Promise<T> {
  const key = `${browser} ${origin} ${request.token ?? ''} ${request.path}`;
  const keeps = CLIENT === 'browser' && request.method === 'GET';
  const revalidate = keeps ? kept.get(key) : undefined;
  const response = await fetch(origin + request.path, {
    method: request.method,
    headers: {
      'accept-encoding': ACCEPT_ENCODING,
      ...(request.token ? { authorization: `Bearer ${request.token}` } : {}),
      ...(request.body ? { 'content-type': 'application/json' } : {}),
      ...(revalidate ? { 'if-none-match': revalidate.etag } : {}),
    },
    body: request.body ? JSON.stringify(request.body) : undefined,
  });
  const text = response.status === 304 && revalidate ? revalidate.text : await response.text();
  if (!response.ok && response.status !== 304) throw new Error(`${request.method} ${request.path}: ${response.status} ${text.slice(0, 200)}`);
  const etag = response.headers.get('etag');
  if (keeps && response.status === 200 && etag) kept.set(key, { etag, text });
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The people of a run, signed in, and what they read and write. */
async function describeWork(origin: string, data: DataSet) {
  const companies = await call<{ id: number; name: string }[]>(origin, { method: 'GET', path: '/api/companies/' });
  const companyId = companies.find((company) => company.name === data.company)!.id;
  const login = async (who: string, role: string) =>
    (await call<{ access: string }>(origin, { method: 'POST', path: '/api/token/', body: { email: `${who}@${data.domain}`, password: data.password, role, company_id: companyId } })).access;
  const [admin, manager, otherManager, member, otherMember] = await Promise.all([
    login('admin', 'admin'),
    login('manager1', 'manager'),
    login('manager2', 'manager'),
    login('member1', 'team_member'),
    login('member2', 'team_member'),
  ]);
  const managerEmail = encodeURIComponent(`manager1@${data.domain}`);
  const reads: { name: string; request: Request }[] = [
    { name: 'profile (member)', request: { method: 'GET', path: '/api/profile/', token: member } },
    { name: 'my subtasks, first 20 (member)', request: { method: 'GET', path: '/api/subtasks/?assigned_to=me&limit=20&offset=0', token: member } },
    { name: 'projects, first 10 (manager)', request: { method: 'GET', path: '/api/projects/?status=ongoing,planned&limit=10', token: manager } },
    { name: 'pending approvals, first 20 (manager)', request: { method: 'GET', path: '/api/pending-approvals/?limit=20&offset=0', token: manager } },
    { name: 'tasks due today, first 20 (manager)', request: { method: 'GET', path: '/api/tasks-due-today/?limit=20&offset=0', token: manager } },
    { name: 'notifications (manager)', request: { method: 'GET', path: `/api/notifications/?email=${managerEmail}`, token: manager } },
    { name: 'team workload (manager)', request: { method: 'GET', path: '/api/team-workload/', token: manager } },
  ];
  // Writers: the admin comments on the first manager's team's work (which notifies them), the second
  // manager flips their own team's subtasks, a second team member reads their notifications.
  const subtasksOf = async (token: string, query: string) => (await call<{ id: number; status: string; major_task: { project: { status: string } } }[]>(origin, { method: 'GET', path: `/api/subtasks/?${query}`, token })).filter((subtask) => subtask.major_task.project.status !== 'completed');
  const commented = (await subtasksOf(manager, 'assigned_to=me&limit=50')).concat(await subtasksOf(member, 'assigned_to=me&limit=50'));
  const team2 = await call<{ user: { id: number } }[]>(origin, { method: 'GET', path: '/api/team-members/', token: otherManager });
  const flipped = (await Promise.all(team2.slice(0, 5).map((record) => subtasksOf(otherManager, `assigned_to=${record.user.id}&status=ongoing&limit=20`)))).flat();
  let written = 0;
  const nextWrite = (): Request => {
    const n = written++;
    if (n % 3 === 0) {
      const subtask = commented[(n / 3) % commented.length]!;
      return { method: 'POST', path: `/api/subtasks/${subtask.id}/comments/`, token: admin, body: { text: `Checked on site, round ${n}` } };
    }
    if (n % 3 === 1 && flipped.length > 0) {
      const index = Math.floor(n / 3);
      const subtask = flipped[index % flipped.length]!;
      const status = Math.floor(index / flipped.length) % 2 === 0 ? 'pending_approval' : 'ongoing';
      return { method: 'PATCH', path: `/api/subtasks/${subtask.id}/`, token: otherManager, body: { status } };
    }
    return { method: 'PATCH', path: '/api/notifications/mark-read/', token: otherMember, body: {} };
  };
  return { reads, nextWrite, counts: { commented: commented.length, flipped: flipped.length } };
}

interface RunFigures {
  perCall: Map<string, number[]>;
  reads: number;
  readErrors: number;
  writes: number;
  writeErrors: number;
  seconds: number;
}

async function run(server: RunningServer, work: Awaited<ReturnType<typeof describeWork>>, rate: number, load: ReadLoad): Promise<RunFigures> {
  const perCall = new Map(work.reads.map((read) => [read.name, [] as number[]]));
  const figures: RunFigures = { perCall, reads: 0, readErrors: 0, writes: 0, writeErrors: 0, seconds: DURATION_S };
  const end = performance.now() + DURATION_S * 1000;
  const writes: Promise<void>[] = [];
  let timer: NodeJS.Timeout | undefined;
  if (rate > 0) {
    timer = setInterval(() => {
      const request = work.nextWrite();
      writes.push(
        call(server.origin, request).then(
          () => void figures.writes++,
          (error: Error) => {
            figures.writeErrors++;
            if (figures.writeErrors <= 3) console.warn(`  write failed: ${error.message}`);
          },
        ),
      );
    }, 1000 / rate);
  }
  const read = async (request: (typeof work.reads)[number], since: number, browser: number) => {
    try {
      await call(server.origin, request.request, browser);
      perCall.get(request.name)!.push(performance.now() - since);
      figures.reads++;
    } catch (error) {
      figures.readErrors++;
      if (figures.readErrors <= 3) console.warn(`  read failed: ${(error as Error).message}`);
    }
  };
  let next = 0;
  if (load === 'closed') {
    await Promise.all(
      Array.from({ length: READERS }, async (_, reader) => {
        while (performance.now() < end) await read(work.reads[next++ % work.reads.length]!, performance.now(), reader);
      }),
    );
  } else {
    const outstanding: Promise<void>[] = [];
    for (let due = performance.now(); ; ) {
      due += (-Math.log(1 - Math.random()) * 1000) / load;
      if (due >= end) break;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      // Each arrival comes from one of READERS devices in turn.
      outstanding.push(read(work.reads[next % work.reads.length]!, due, next++ % READERS));
    }
    await Promise.all(outstanding);
  }
  clearInterval(timer);
  await Promise.all(writes);
  return figures;
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

function runScript(script: string, cwd: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`npm run ${script} in ${cwd} exited with ${code}`))));
  });
}

/** A fresh database of this kind, seeded by the checkout's own code (its migrations and triggers). */
async function seededDatabase(kind: 'postgres' | 'pglite', data: DataSet, checkout: Checkout) {
  if (kind === 'postgres') {
    const name = `siteboard_mixed_${checkout.label.replace(/\W/g, '_')}_${data.name}_${process.pid}`;
    await withAdmin((client) => client.query(`drop database if exists ${name} with (force)`).then(() => client.query(`create database ${name}`)));
    const env = { DATABASE_URL: databaseUrl(name) };
    await runScript(data.seedScript, checkout.root, env);
    return { env, drop: () => withAdmin((client) => client.query(`drop database if exists ${name} with (force)`)).then(() => {}) };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-mixed-'));
  const env = { DATA_DIR: dataDir };
  await runScript(data.seedScript, checkout.root, env);
  return { env, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}

interface Row {
  kind: 'postgres' | 'pglite';
  data: 'small' | 'large';
  checkout: string;
  rate: number;
  load: ReadLoad;
  turn: number;
  figures: RunFigures;
}

async function main() {
  const startedAt = new Date();
  // The earlier checkout, then its variants (BENCH_BEFORE_VARIANTS), then this one.
  const checkouts = checkoutsToMeasure().flatMap((checkout) => (checkout === thisCheckout ? [checkout] : [checkout, ...beforeVariants(checkout)]));
  for (const checkout of checkouts) ensureServerBuilt(checkout);
  const rows: Row[] = [];
  for (const dataName of DATA_SETS) {
    const data = DATA[dataName];
    for (const kind of KINDS) {
      console.log(`\n=== ${data.name} data on ${kind} ===`);
      const servers: { checkout: Checkout; server: RunningServer; metricsPort: number; work: Awaited<ReturnType<typeof describeWork>>; drop: () => Promise<void> }[] = [];
      try {
        for (const checkout of checkouts) {
          const database = await seededDatabase(kind, data, checkout);
          const metricsPort = await freePort();
          const server = await startServer({ env: { ...database.env, DB_POOL_SIZE: '10', METRICS_PORT: String(metricsPort) }, checkout, nodeArgs: benchNodeArgs(checkout), stdio: 'collect' });
          const work = await describeWork(server.origin, data);
          console.log(`${checkout.label}: serving on ${server.origin}; ${work.counts.commented} subtasks to comment on, ${work.counts.flipped} to flip`);
          servers.push({ checkout, server, metricsPort, work, drop: database.drop });
        }
        await waitForFirstSweeps(servers, Number(process.env.BENCH_SWEEP_WAIT_SECONDS ?? (data.name === 'large' ? 600 : 60)), data.name === 'large' ? 90 : 30);
        const settle = Number(process.env.BENCH_SETTLE_SECONDS ?? 15);
        console.log(`settling ${settle} s more (the embedded maintenance after the sweep)…`);
        await new Promise((resolve) => setTimeout(resolve, settle * 1000));
        // Warm each server's code and caches with one short unmeasured run.
        for (const { server, work } of servers) await run(server, work, 0, 'closed').catch(() => undefined);
        for (const load of READ_LOADS) {
          for (const rate of RATES) {
            for (let turn = 0; turn < TURNS; turn++) {
              for (const { checkout, server, work } of servers) {
                const figures = await run(server, work, rate, load);
                rows.push({ kind, data: data.name, checkout: checkout.label, rate, load, turn, figures });
                console.log(`${checkout.label} ${kind} ${data.name}, ${describeLoad(load)} @ ${rate} writes/s${TURNS > 1 ? `, turn ${turn + 1}` : ''}: ${Math.round(figures.reads / figures.seconds)} reads/s, ${figures.writes} writes, errors ${figures.readErrors}/${figures.writeErrors}`);
              }
            }
          }
        }
      } finally {
        for (const { server, drop } of servers) {
          await server.stop();
          await drop();
        }
      }
    }
  }
  const report = renderReport(rows, checkouts, startedAt);
  const file = path.join(repoRoot, 'bench/results/mixed.md');
  fs.writeFileSync(file, report);
  console.log(`\n${report}\nWritten to ${path.relative(repoRoot, file)}`);
}

function renderReport(rows: Row[], checkouts: Checkout[], startedAt: Date): string {
  const fmt = (ms: number) => (Number.isNaN(ms) ? '–' : ms < 10 ? ms.toFixed(1) : String(Math.round(ms)));
  const ratio = (a: number, b: number) => (Number.isFinite(a / b) ? (a / b).toFixed(2) : '–');
  const median = (values: number[]) => percentile(values, 50);
  const turnsOf = (kind: string, data: string, checkout: string, rate: number, load: ReadLoad) => rows.filter((row) => row.kind === kind && row.data === data && row.checkout === checkout && row.rate === rate && row.load === load);
  const lines = [
    '# Mixed load: reads while the same company writes',
    '',
    `Run ${startedAt.toISOString()} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'} (load average at the end ${os.loadavg().map((load) => load.toFixed(1)).join(', ')}).`,
    `Reads (${READ_LOADS.map(describeLoad).join('; ')}; ${CLIENT === 'browser' ? `each reader is one device that revalidates what it last read with If-None-Match, as a browser does` : 'every read downloads its answer'}; Accept-Encoding: ${ACCEPT_ENCODING}) for ${DURATION_S} s per run while writers of the same company send comments, status changes and "mark read" at the given rate; PostgreSQL through ${postgresTransport()}.`,
    checkouts.length > 1 ? `Servers: ${checkouts.map((checkout) => `**${checkout.label}** (${checkout.root === repoRoot ? 'this checkout' : checkout.root}${checkout.env ? `, ${Object.entries(checkout.env).map(([key, value]) => `${key}=${value}`).join(', ')}` : ''})`).join(' and ')}, in turns, each on a database seeded by its own code.` : 'Server: this checkout.',
    ...(TURNS > 1 ? [`Each server ran each load ${TURNS} times${checkouts.length > 2 ? ', interleaved with the others' : checkouts.length > 1 ? ', interleaved with the other' : ''}; each cell is the median of the turns' p50 and p99, with the turns' p99s in brackets, and the ratios are of those medians.`] : []),
    '',
  ];
  for (const data of DATA_SETS) {
    for (const load of READ_LOADS) for (const rate of RATES) {
      lines.push(`## ${data} data, ${rate} writes/s${READ_LOADS.length > 1 || load !== 'closed' ? `, ${describeLoad(load)}` : ''}`, '');
      const header = ['call'];
      for (const kind of KINDS) for (const checkout of checkouts) header.push(`${kind} ${checkout.label} p50 / p99 ms`);
      const earlier = checkouts.filter((checkout) => checkout !== thisCheckout);
      if (checkouts.length > 1) for (const checkout of earlier) for (const kind of KINDS) header.push(`${kind} p99 after/${checkout.label}`);
      if (KINDS.length > 1) for (const checkout of checkouts) header.push(`${checkout.label} p99 embedded/PostgreSQL`);
      lines.push(`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`);
      const calls = [...(rows.find((row) => row.data === data)?.figures.perCall.keys() ?? [])];
      for (const name of [...calls, 'all reads']) {
        /** Each turn's p50 and p99 of this call (or of all reads), once per database and server. */
        const perTurn = new Map<string, { p50: number; p99: number }[]>();
        for (const kind of KINDS) for (const checkout of checkouts) {
          perTurn.set(
            `${kind} ${checkout.label}`,
            turnsOf(kind, data, checkout.label, rate, load).map((row) => {
              const latencies = name === 'all reads' ? [...row.figures.perCall.values()].flat() : (row.figures.perCall.get(name) ?? []);
              return { p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
            }),
          );
        }
        const p99 = (kind: string, checkout: string) => median((perTurn.get(`${kind} ${checkout}`) ?? []).map((turn) => turn.p99));
        const cells = [name];
        for (const kind of KINDS) for (const checkout of checkouts) {
          const turns = perTurn.get(`${kind} ${checkout.label}`)!;
          const spread = turns.length > 1 ? ` (${turns.map((turn) => fmt(turn.p99)).join(', ')})` : '';
          cells.push(`${fmt(median(turns.map((turn) => turn.p50)))} / ${fmt(p99(kind, checkout.label))}${spread}`);
        }
        if (checkouts.length > 1) for (const checkout of earlier) for (const kind of KINDS) cells.push(ratio(p99(kind, 'after'), p99(kind, checkout.label)));
        if (KINDS.length > 1) for (const checkout of checkouts) cells.push(ratio(p99('pglite', checkout.label), p99('postgres', checkout.label)));
        lines.push(`| ${cells.join(' | ')} |`);
      }
      const readsPerSecond = (kind: string, checkout: string) => median(turnsOf(kind, data, checkout, rate, load).map((row) => row.figures.reads / row.figures.seconds));
      const throughput = ['reads answered per second'];
      for (const kind of KINDS) for (const checkout of checkouts) {
        const turns = turnsOf(kind, data, checkout.label, rate, load);
        const sum = (count: (figures: RunFigures) => number) => turns.reduce((total, row) => total + count(row.figures), 0);
        throughput.push(turns.length > 0 ? `${Math.round(readsPerSecond(kind, checkout.label))} (errors ${sum((figures) => figures.readErrors)}, writes ${sum((figures) => figures.writes)}/${sum((figures) => figures.writeErrors)} failed)` : '–');
      }
      if (checkouts.length > 1) for (const checkout of earlier) for (const kind of KINDS) throughput.push(ratio(readsPerSecond(kind, 'after'), readsPerSecond(kind, checkout.label)));
      if (KINDS.length > 1) for (const checkout of checkouts) throughput.push(ratio(readsPerSecond('pglite', checkout.label), readsPerSecond('postgres', checkout.label)));
      lines.push(`| ${throughput.join(' | ')} |`, '');
    }
  }
  return lines.join('\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

/** The notification sweep's finished runs as the server's metrics say; undefined when it does not count them (an earlier checkout). */
async function sweepsDone(metricsPort: number): Promise<number | undefined> {
  const text = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((answer) => (answer.ok ? answer.text() : ''), () => '');
  if (!text.includes('# TYPE siteboard_sweep_runs_total')) return undefined;
  return Number(/^siteboard_sweep_runs_total\{sweep="notification sweep",outcome="done"\} (\d+)/m.exec(text)?.[1] ?? 0);
}

/**
 * Waits until every server's first notification sweep has ended (its metrics count it), at most
 * `capSeconds`; a server whose metrics do not count sweeps (an earlier checkout) is given
 * `fixedSeconds` from now instead. On the large data that sweep writes 86,084 notifications over
 * a minute or more, and a fixed wait that ended first put its transactions into the first run.
 */
async function waitForFirstSweeps(servers: { checkout: Checkout; metricsPort: number }[], capSeconds: number, fixedSeconds: number) {
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  console.log(`waiting for each server's first notification sweep (at most ${capSeconds} s)…`);
  const waits = servers.map(async ({ checkout, metricsPort }) => {
    for (;;) {
      const done = await sweepsDone(metricsPort);
      if (done === undefined && elapsed() >= fixedSeconds) return `${checkout.label}: counts no sweeps, waited ${fixedSeconds} s`;
      if (done !== undefined && done > 0) return `${checkout.label}: first sweep done after ${elapsed().toFixed(0)} s`;
      if (elapsed() >= capSeconds) return `${checkout.label}: no sweep done in ${capSeconds} s`;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  });
  for (const line of await Promise.all(waits)) console.log(line);
}
