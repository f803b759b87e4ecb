/**
 * `npm run bench` — the API under load on the large data, on PostgreSQL and on PGlite.
 *
 * For each database it seeds a brand-new copy of `npm run seed:large` (two companies), starts the
 * real server as a child process and drives it from this process with autocannon at 1, 10 and 50
 * connections, one endpoint at a time, as the first large company's manager1 / member1. Each
 * figure sits beside its ratio to /api/health/live/ (no database) measured at the same
 * connection count, so runs on different machines compare. Writes bench/results/<date>-http.md.
 *
 * Options (environment): BENCH_DB=both|postgres|pglite, BENCH_DURATION seconds per run (default 8),
 * BENCH_CONNECTIONS (default 1,10,50), BENCH_ONLY (a pattern: only the endpoints it matches),
 * BENCH_PORT (default 4187), BENCH_PG_URL (an admin connection to the PostgreSQL server the
 * throwaway database is created on; default postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_DATABASE_URL (reuse this seeded PostgreSQL database instead of seeding a fresh one).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { describeEndpoints, type Call, type Endpoint } from '../lib/endpoints';
import { postgresTransport, prepareLargeDatabase, repoRoot, withAdmin } from '../lib/large-database';
import { startServer, stopServer } from '../lib/server';

const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '1,10,50').split(',').map(Number);
const PORT = Number(process.env.BENCH_PORT ?? 4187);
const ONLY = new RegExp(process.env.BENCH_ONLY ?? '', 'i');
const KINDS = (process.env.BENCH_DB ?? 'both') === 'both' ? (['postgres', 'pglite'] as const) : ([process.env.BENCH_DB] as ('postgres' | 'pglite')[]);
const base = `http://127.0.0.1:${PORT}`;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function main() {
  const started = new Date();
  const sections: string[] = [];
  for (const kind of KINDS) {
    console.log(`\n=== ${kind} ===`);
    const data = await prepareLargeDatabase(kind);
    const server = await startServer(data.env, PORT);
    try {
      const endpoints = (await describeEndpoints(call)).filter((endpoint) => ONLY.test(endpoint.name));
      const results = await measure(endpoints);
      sections.push(renderSection(kind, data.seedSeconds, endpoints, results));
    } finally {
      await stopServer(server);
      await data.drop();
    }
  }
  const file = path.join(repoRoot, 'bench/results', `${started.toISOString().slice(0, 10)}-http.md`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, [await renderHeader(started), ...sections].join('\n\n') + '\n');
  console.log(`\nWrote ${path.relative(repoRoot, file)}`);
}

const call: Call = async <T>(method: string, url: string, token?: string, body?: unknown): Promise<T> => {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
};

const CEILING: Endpoint = { name: 'ceiling: /api/health/live/ (no database)', kind: 'read', next: () => ({ method: 'GET', path: '/api/health/live/' }) };

async function measure(endpoints: Endpoint[]): Promise<Map<string, Map<number, Figures>>> {
  const results = new Map<string, Map<number, Figures>>();
  for (const endpoint of [CEILING, ...endpoints]) {
    // A short warm-up: JIT, the pool's connections and the database's caches.
    await load(endpoint, 10, 2);
    const byConnections = new Map<number, Figures>();
    for (const connections of CONNECTIONS) {
      const figures = await load(endpoint, connections, DURATION);
      byConnections.set(connections, figures);
      console.log(`${endpoint.name.padEnd(46)} c=${String(connections).padStart(2)}  ${figures.rps.toFixed(0).padStart(6)} req/s  p50 ${figures.p50} ms  p99 ${figures.p99} ms  errors ${figures.errors}`);
    }
    results.set(endpoint.name, byConnections);
  }
  return results;
}

async function load(endpoint: Endpoint, connections: number, duration: number): Promise<Figures> {
  const result = await autocannon({
    url: base,
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

async function renderHeader(started: Date): Promise<string> {
  const postgresVersion = await pgVersion();
  return [
    `# HTTP benchmark — ${started.toISOString().slice(0, 10)}`,
    '',
    `Large data (\`npm run seed:large\`: two companies, each 2,000 users, 1,000 projects, 10,000 major tasks, 100,000 subtasks, 200,000 notifications), the server as its own process reaching PostgreSQL over ${postgresTransport()}, autocannon from another, ${DURATION} s per run after a 2 s warm-up, every request asking for gzip/br like a browser. Acting as the first company's manager1 (10 projects, team of 20) and member1.`,
    '',
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${postgresVersion}; 1-minute load average ${os.loadavg()[0]!.toFixed(1)} when the run ended (anything above ~1 is someone else's work sharing the cores). Ratio = the endpoint's requests/s ÷ the no-database ceiling's at the same connection count.`,
  ].join('\n');
}

async function pgVersion(): Promise<string> {
  const { rows } = await withAdmin((client) => client.query<{ server_version: string }>('show server_version'));
  return `PostgreSQL ${rows[0]!.server_version.split(' ')[0]}`;
}

function renderSection(kind: 'postgres' | 'pglite', seedSeconds: number | undefined, endpoints: Endpoint[], results: Map<string, Map<number, Figures>>): string {
  const title = kind === 'postgres' ? 'PostgreSQL (pool of DB_POOL_SIZE connections, default 10)' : 'PGlite (embedded, one connection)';
  const seeding = seedSeconds === undefined ? 'A database seeded earlier (BENCH_DATABASE_URL), with what earlier write runs added.' : `Seeded in ${seedSeconds.toFixed(0)} s (npm run seed:large, both companies).`;
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
