/**
 * `npm run bench` — the API under load on the large data, on PostgreSQL and on PGlite.
 *
 * For each database it seeds a brand-new copy of `npm run seed:large` (two companies), starts the
 * real server (compiled, as `npm start` runs it) as a child process per target and drives them in
 * turn from this process with autocannon at 1, 10 and 50 connections, one endpoint at a time, as
 * the first large company's manager1 / member1. Each figure sits beside its ratio to
 * /api/health/live/ (no database) measured on the same server at the same connection count, so
 * runs on different machines compare. Writes bench/results/http.md.
 *
 * Options (environment): BENCH_DB=both|postgres|pglite, BENCH_DURATION seconds per run (default 8),
 * BENCH_CONNECTIONS (default 1,10,50), BENCH_ONLY (a pattern: only the endpoints it matches),
 * BENCH_BEFORE_DIR (an earlier checkout measured side by side: see bench/lib/server.ts),
 * BENCH_PGLITE_HOSTS (thread, or thread,process), BENCH_PG_URL (an admin connection to the PostgreSQL server the
 * throwaway database is created on; default postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_DATABASE_URL (reuse this seeded PostgreSQL database instead of seeding a fresh one), BENCH_DATA_DIR (the
 * same for PGlite: a seeded data directory, copied for each server),
 * BENCH_SETTLE_SECONDS (wait this long after the servers start, for their first notification sweep; default 150),
 * BENCH_VARIANTS (more servers of this checkout with other settings or node arguments: see bench/lib/server.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { describeEndpoints, type Call, type Endpoint } from '../lib/endpoints';
import { copyLargeDatabase, postgresTransport, prepareLargeDatabase, withAdmin, type LargeDatabase } from '../lib/large-database';
import { benchVariants, type Checkout, checkoutsToMeasure, ensureServerBuilt, repoRoot, type RunningServer, startNodeArgs, startServer, thisCheckout } from '../lib/server';

const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '1,10,50').split(',').map(Number);
const ONLY = new RegExp(process.env.BENCH_ONLY ?? '', 'i');
/** How long to wait after the servers start before measuring: their first notification sweep must be over (BENCH_SETTLE_SECONDS). */
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 150);
const KINDS = (process.env.BENCH_DB ?? 'both') === 'both' ? (['postgres', 'pglite'] as const) : ([process.env.BENCH_DB] as ('postgres' | 'pglite')[]);
/** BENCH_PGLITE_HOSTS=thread,process measures the embedded database on its own thread and in its own process side by side. */
const PGLITE_HOSTS = (process.env.BENCH_PGLITE_HOSTS ?? 'thread').split(',');

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** One server under test: which code, which database, and its figures. */
interface Target {
  label: string;
  kind: 'postgres' | 'pglite';
  checkout: Checkout;
  env: Record<string, string>;
  nodeArgs: string[];
  server?: RunningServer;
  endpoints?: Endpoint[];
  results: Map<string, Map<number, Figures>>;
}

async function main() {
  const started = new Date();
  ensureServerBuilt();
  const checkouts = checkoutsToMeasure();
  const databases: LargeDatabase[] = [];
  const targets: Target[] = [];
  try {
    for (const kind of KINDS) {
      console.log(`\n=== seeding ${kind} ===`);
      const data = await prepareLargeDatabase(kind);
      databases.push(data);
      for (const checkout of checkouts) {
        const hosts = kind === 'pglite' && checkout === thisCheckout ? PGLITE_HOSTS : [undefined];
        for (const host of hosts) {
          // PGlite is one process per data directory: each server gets its own copy of the seeded one.
          // On PostgreSQL each checkout gets its own too when there are two: each migrates its database.
          const copy = kind === 'pglite' || checkouts.length > 1 ? await copyLargeDatabase(data) : data;
          if (copy !== data) databases.push(copy);
          const label = [checkout.label, kind, host && PGLITE_HOSTS.length > 1 ? `(${host})` : ''].filter(Boolean).join(' ');
          targets.push({ label, kind, checkout, env: { ...copy.env, ...(host ? { SITEBOARD_EMBEDDED_HOST: host } : {}) }, nodeArgs: [], results: new Map() });
        }
      }
      for (const variant of benchVariants()) {
        const copy = await copyLargeDatabase(data);
        databases.push(copy);
        targets.push({ label: `${variant.label} ${kind}`, kind, checkout: thisCheckout, env: { ...copy.env, ...variant.env }, nodeArgs: variant.nodeArgs, results: new Map() });
      }
    }
    for (const target of targets) {
      target.server = await startServer({ env: target.env, checkout: target.checkout, nodeArgs: target.nodeArgs });
      target.endpoints = (await describeEndpoints(caller(target.server.origin))).filter((endpoint) => ONLY.test(endpoint.name));
      console.log(`${target.label}: ready in ${(target.server.startMs / 1000).toFixed(1)} s`);
    }
    // Each server runs its first notification sweep 5 s after it starts, whatever SWEEP_INTERVAL_SECONDS
    // says; on the large data it writes reminders for ~90 s (PGlite) and every request meanwhile waits
    // behind it (2–3 s each). The figures are of a server past it.
    console.log(`settling for ${SETTLE_SECONDS} s (the first notification sweep)`);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
    await measure(targets);
  } finally {
    for (const target of targets) await target.server?.stop();
    for (const database of databases) await database.drop();
  }
  const file = path.join(repoRoot, 'bench/results', 'http.md');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sections = targets.map((target) => renderSection(target, databases.find((data) => data.seedSeconds !== undefined && data.kind === target.kind)?.seedSeconds));
  fs.writeFileSync(file, [await renderHeader(started, targets), ...(targets.length > 2 ? [renderComparison(targets)] : []), ...sections].join('\n\n') + '\n');
  console.log(`\nWrote ${path.relative(repoRoot, file)}`);
}

function caller(origin: string): Call {
  return async <T>(method: string, url: string, token?: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${origin}${url}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
}

const CEILING: Endpoint = { name: 'ceiling: /api/health/live/ (no database)', kind: 'read', next: () => ({ method: 'GET', path: '/api/health/live/' }) };

/**
 * Interleaved: for each endpoint and connection count, every target in turn, so that whatever
 * else the machine does in a given minute falls on all of them alike.
 */
async function measure(targets: Target[]) {
  const names = [CEILING.name, ...targets[0]!.endpoints!.map((endpoint) => endpoint.name)];
  for (const name of names) {
    for (const target of targets) {
      // A short warm-up: JIT, the pool's connections and the database's caches.
      await load(target, name, 10, 2);
      target.results.set(name, new Map());
    }
    for (const connections of CONNECTIONS) {
      for (const target of targets) {
        const figures = await load(target, name, connections, DURATION);
        target.results.get(name)!.set(connections, figures);
        console.log(`${target.label.padEnd(22)} ${name.slice(0, 44).padEnd(44)} c=${String(connections).padStart(2)}  ${figures.rps.toFixed(0).padStart(6)} req/s  p50 ${figures.p50} ms  p99 ${figures.p99} ms  errors ${figures.errors}`);
      }
    }
  }
}

async function load(target: Target, name: string, connections: number, duration: number): Promise<Figures> {
  const endpoint = name === CEILING.name ? CEILING : target.endpoints!.find((candidate) => candidate.name === name)!;
  const result = await autocannon({
    url: target.server!.origin,
    connections,
    duration,
    // Browsers always ask for compressed answers; so do these runs.
    headers: { 'accept-encoding': 'gzip, br' },
    requests: [
      {
        setupRequest: (request) => {
          const next = endpoint.next();
          return {
            ...request,
            method: next.method,
            path: next.path,
            headers: {
              ...request.headers,
              ...(next.token ? { authorization: `Bearer ${next.token}` } : {}),
              ...(next.body === undefined ? {} : { 'content-type': 'application/json' }),
            },
            body: next.body === undefined ? undefined : JSON.stringify(next.body),
          };
        },
      },
    ],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx };
}

async function renderHeader(started: Date, targets: Target[]): Promise<string> {
  const postgresVersion = await pgVersion();
  const servers = targets.map((target) => `${target.label}: ${target.checkout === thisCheckout ? `node ${[...startNodeArgs(), ...target.nodeArgs, 'apps/server/dist/server.js'].join(' ')} (npm start)` : `the earlier checkout ${target.checkout.root}`}`);
  return [
    `# HTTP benchmark — ${started.toISOString().slice(0, 10)}`,
    '',
    `Large data (\`npm run seed:large\`: two companies, each 2,000 users, 1,000 projects, 10,000 major tasks, 100,000 subtasks, 200,000 notifications), the server as its own process reaching PostgreSQL over ${postgresTransport()}, autocannon from another, ${DURATION} s per run after a 2 s warm-up, every request asking for gzip/br like a browser. Acting as the first company's manager1 (10 projects, team of 20) and member1.`,
    '',
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${postgresVersion}; 1-minute load average ${os.loadavg()[0]!.toFixed(1)} when the run ended (anything above ~1 is someone else's work sharing the cores). Ratio = the endpoint's requests/s ÷ the no-database ceiling's at the same connection count, measured on the same server.`,
    '',
    `Servers, all running during the whole run and measured in turn for each endpoint and connection count (interleaved): ${servers.join('; ')}.`,
  ].join('\n');
}

async function pgVersion(): Promise<string> {
  const { rows } = await withAdmin((client) => client.query<{ server_version: string }>('show server_version'));
  return `PostgreSQL ${rows[0]!.server_version.split(' ')[0]}`;
}

/** Side by side at 10 connections (or the first count measured): each endpoint's ratio to its own server's ceiling, and its p99. */
function renderComparison(targets: Target[]): string {
  const connections = CONNECTIONS.includes(10) ? 10 : CONNECTIONS[0]!;
  const endpoints = targets[0]!.endpoints!;
  const header = `| endpoint | ${targets.map((target) => `${target.label} ratio | p99 ms`).join(' | ')} |`;
  const rule = `|---|${targets.map(() => '---:|---:').join('|')}|`;
  const rows = endpoints.map((endpoint) => {
    const cells = targets.map((target) => {
      const figures = target.results.get(endpoint.name)!.get(connections)!;
      const ceiling = target.results.get(CEILING.name)!.get(connections)!;
      return `${(figures.rps / ceiling.rps).toFixed(3)} | ${figures.p99}`;
    });
    return `| ${endpoint.name} | ${cells.join(' | ')} |`;
  });
  const ceilings = `| ceiling req/s | ${targets.map((target) => `${target.results.get(CEILING.name)!.get(connections)!.rps.toFixed(0)} | ${target.results.get(CEILING.name)!.get(connections)!.p99}`).join(' | ')} |`;
  return [`## Side by side, ${connections} connections`, '', header, rule, ceilings, ...rows].join('\n');
}

function renderSection(target: Target, seedSeconds: number | undefined): string {
  const { kind, results } = target;
  const endpoints = target.endpoints!;
  const title = `${target.label}: ${kind === 'postgres' ? 'PostgreSQL (pool of DB_POOL_SIZE connections, default 10)' : 'PGlite (embedded, one connection)'}`;
  const seeding = seedSeconds === undefined ? 'A database seeded earlier (BENCH_DATABASE_URL or BENCH_DATA_DIR).' : `Seeded in ${seedSeconds.toFixed(0)} s (npm run seed:large, both companies).`;
  const lines = [`## ${title}`, '', seeding];
  for (const connections of CONNECTIONS) {
    const ceiling = results.get(CEILING.name)!.get(connections)!;
    lines.push('', `### ${connections} connection${connections === 1 ? '' : 's'}`, '', '| endpoint | kind | req/s | ratio | p50 ms | p99 ms | errors |', '|---|---|---:|---:|---:|---:|---:|');
    for (const endpoint of [CEILING, ...endpoints]) {
      const figures = results.get(endpoint.name)!.get(connections)!;
      const ratio = endpoint === CEILING ? '1' : (figures.rps / ceiling.rps).toFixed(3);
      lines.push(`| ${endpoint.name}${endpoint.note ? ` — ${endpoint.note}` : ''} | ${endpoint.kind} | ${figures.rps.toFixed(0)} | ${ratio} | ${figures.p50} | ${figures.p99} | ${figures.errors} |`);
    }
  }
  if (CONNECTIONS.includes(10)) lines.push('', verdict(endpoints, results));
  return lines.join('\n');
}

/** The issue's bar at 10 connections: reads p99 < 50 ms, writes < 100 ms, no errors; what is held to no latency bar is listed with its reason. */
function verdict(endpoints: Endpoint[], results: Map<string, Map<number, Figures>>): string {
  const at10 = (endpoint: Endpoint) => results.get(endpoint.name)!.get(10)!;
  const misses = endpoints.flatMap((endpoint) => {
    const figures = at10(endpoint);
    const limit = endpoint.kind === 'read' ? 50 : 100;
    const slow = !endpoint.outsideTheBar && figures.p99 >= limit;
    const problems = [slow ? `p99 ${figures.p99} ms ≥ ${limit} ms` : '', figures.errors > 0 ? `${figures.errors} errors` : ''].filter(Boolean);
    return problems.length ? [`${endpoint.name}: ${problems.join(', ')}`] : [];
  });
  const outside = endpoints
    .filter((endpoint) => endpoint.outsideTheBar)
    .map((endpoint) => `- ${endpoint.name}: p99 ${at10(endpoint).p99} ms, held to no latency bar: ${endpoint.outsideTheBar}.`);
  const held = misses.length === 0
    ? 'At 10 connections: every read p99 under 50 ms, every write under 100 ms, no errors.'
    : `At 10 connections, over the bar (reads 50 ms, writes 100 ms, no errors):\n${misses.map((miss) => `- ${miss}`).join('\n')}`;
  return outside.length ? `${held}\n\n${outside.join('\n')}` : held;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
