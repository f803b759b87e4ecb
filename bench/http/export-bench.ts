/**
 * `npm run bench:export` — a company's 100,000 subtasks as a CSV download against the same rows as
 * the unpaged JSON list, on the large data, on PostgreSQL and on PGlite.
 *
 * For each database it seeds a brand-new copy of `npm run seed:large`, then, in alternating
 * rounds, starts the real server afresh for each download (so one download's heap does not
 * become the next one's baseline), signs in as the first large company's admin and downloads
 * `GET /api/subtasks/?format=csv` or `GET /api/subtasks/` whole, uncompressed. It records the time
 * to the last byte, the bytes and rows, and how far the server's resident memory rose above what
 * it held before the download (its high-water mark, VmHWM, against VmRSS before). Each CSV figure
 * sits beside its ratio to the JSON figure of the same round. Writes
 * bench/results/export.md.
 *
 * Options (environment): BENCH_DB=both|postgres|pglite, BENCH_ROUNDS (default 3), BENCH_PORT
 * (default 4188), BENCH_PG_URL as for `npm run bench`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LARGE_PASSWORD } from '../lib/endpoints';
import { prepareLargeDatabase, repoRoot } from '../lib/large-database';
import { startServer, type RunningServer } from '../lib/server';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 4188);
const KINDS = (process.env.BENCH_DB ?? 'both') === 'both' ? (['postgres', 'pglite'] as const) : ([process.env.BENCH_DB] as ('postgres' | 'pglite')[]);

const CALLS = [
  { name: 'CSV: /api/subtasks/?format=csv', path: '/api/subtasks/?format=csv' },
  { name: 'JSON: /api/subtasks/ (unpaged)', path: '/api/subtasks/' },
] as const;

interface Figures {
  seconds: number;
  megabytes: number;
  rows: number;
  rssGrowthMb: number;
}

/** A figure of the server process's /proc status, in MB. */
function memoryOf(server: RunningServer, field: 'VmRSS' | 'VmHWM'): number {
  const status = fs.readFileSync(`/proc/${server.pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]) / 1024;
}

async function signInAsAdmin(base: string): Promise<string> {
  const companies = (await (await fetch(`${base}/api/companies/`)).json()) as { id: number; name: string }[];
  const companyId = companies.find((company) => company.name === 'Large Contractor 1')!.id;
  const response = await fetch(`${base}/api/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@c1.large.test', password: LARGE_PASSWORD, role: 'admin', company_id: companyId }),
  });
  return ((await response.json()) as { access: string }).access;
}

/** Downloads the call whole on a fresh server, counting as it goes. */
async function download(env: Record<string, string>, call: (typeof CALLS)[number]): Promise<Figures> {
  const server = await startServer({ env, port: PORT });
  const base = server.origin;
  try {
    const token = await signInAsAdmin(base);
    // A small warm-up of the same code path (the admin is assigned nothing): JIT, the pool.
    await (await fetch(`${base}${call.path}${call.path.includes('?') ? '&' : '?'}assigned_to=me`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
    const before = memoryOf(server, 'VmRSS');
    const started = performance.now();
    const response = await fetch(`${base}${call.path}`, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' } });
    if (!response.ok) throw new Error(`${call.path}: ${response.status}`);
    let bytes = 0;
    let newlines = 0;
    const reader = response.body!.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      bytes += chunk.value.length;
      for (let at = chunk.value.indexOf(10); at !== -1; at = chunk.value.indexOf(10, at + 1)) newlines++;
    }
    const seconds = (performance.now() - started) / 1000;
    // The CSV has a header line and a line per row; the JSON array is one line, its rows counted by the server's statement.
    const rows = call.path.includes('csv') ? newlines - 1 : Number.NaN;
    return { seconds, megabytes: bytes / 1024 / 1024, rows, rssGrowthMb: memoryOf(server, 'VmHWM') - before };
  } finally {
    await server.stop();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const started = new Date();
  const sections: string[] = [];
  for (const kind of KINDS) {
    console.log(`\n=== ${kind} ===`);
    const data = await prepareLargeDatabase(kind);
    try {
      const rounds: { csv: Figures; json: Figures }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // Alternating which goes first, so neither always meets the warmer machine.
        const order = round % 2 === 0 ? [...CALLS] : [...CALLS].reverse();
        const figures = new Map<string, Figures>();
        for (const call of order) {
          const result = await download(data.env, call);
          figures.set(call.name, result);
          console.log(`${call.name.padEnd(34)} ${result.seconds.toFixed(2)} s  ${result.megabytes.toFixed(1)} MB  RSS +${result.rssGrowthMb.toFixed(0)} MB`);
        }
        rounds.push({ csv: figures.get(CALLS[0].name)!, json: figures.get(CALLS[1].name)! });
      }
      sections.push(renderSection(kind, data.seedSeconds, rounds));
    } finally {
      await data.drop();
    }
  }
  const file = path.join(repoRoot, 'bench/results', 'export.md');
  fs.writeFileSync(file, [renderHeader(started), ...sections].join('\n\n') + '\n');
  console.log(`\nWrote ${path.relative(repoRoot, file)}`);
}

function renderHeader(started: Date): string {
  return [
    `# CSV export against the unpaged JSON list — ${started.toISOString().slice(0, 10)}`,
    '',
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB; load average at start ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(', ')}. Node ${process.version}.`,
    `Each download on a freshly started server, uncompressed, as the admin of Large Contractor 1 (100,000 subtasks). ${ROUNDS} rounds, alternating order; medians, and per round the CSV figure as a ratio to the JSON one.`,
  ].join('\n');
}

function renderSection(kind: string, seedSeconds: number | undefined, rounds: { csv: Figures; json: Figures }[]): string {
  const row = (name: string, pick: (round: { csv: Figures; json: Figures }) => Figures) => {
    const figures = rounds.map(pick);
    return `| ${name} | ${median(figures.map((f) => f.seconds)).toFixed(2)} | ${median(figures.map((f) => f.megabytes)).toFixed(1)} | ${median(figures.map((f) => f.rssGrowthMb)).toFixed(0)} |`;
  };
  const ratios = rounds.map((round) => `${(round.csv.seconds / round.json.seconds).toFixed(2)} × time, ${(round.csv.rssGrowthMb / round.json.rssGrowthMb).toFixed(2)} × memory`);
  return [
    `## ${kind}${seedSeconds ? ` (seeded in ${seedSeconds.toFixed(0)} s)` : ''}`,
    '',
    '| download | seconds to the last byte | MB sent | server RSS growth, MB |',
    '|---|---|---|---|',
    row(CALLS[0].name, (round) => round.csv),
    row(CALLS[1].name, (round) => round.json),
    '',
    `CSV rows: ${rounds.map((round) => round.csv.rows).join(', ')}. CSV against JSON, per round: ${ratios.join('; ')}.`,
  ].join('\n');
}

await main();
