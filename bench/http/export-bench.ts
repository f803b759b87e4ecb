/**
 * `npm run bench:export` — a company's 100,000 subtasks as a CSV download and as an Excel workbook,
 * and a tenth of them (those of completed projects) as a workbook, on the large data, on
 * PostgreSQL and on PGlite: a streamed file's memory must not grow with its rows.
 *
 * For each database it seeds a brand-new copy of `npm run seed:large`, then, in alternating
 * rounds, starts the real server afresh for each download (so one download's heap does not
 * become the next one's baseline), signs in as the first large company's admin and downloads
 * `GET /api/subtasks/?format=csv`, `?format=xlsx` or `?format=xlsx&project_status=completed` whole,
 * uncompressed. It records the time to the last byte, the bytes and rows (the workbook's read back
 * with exceljs after the download), and the server's memory above what it held before the download.
 * Memory is read through the server's inspector after a full collection, at every 512 KiB received
 * (the download waits meanwhile): what it holds live (heap objects and buffers) and its resident
 * size. A resident high-water mark alone (VmHWM) counts garbage V8 had not yet collected, which
 * grows with a download's length whatever the server holds; it is still reported, last. The whole
 * files' figures sit beside the tenth's of the same round. Writes bench/results/export.md.
 *
 * Options (environment): BENCH_DB=both|postgres|pglite, BENCH_ROUNDS (default 3), BENCH_PORT
 * (default 4188), BENCH_PG_URL as for `npm run bench`.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import os from 'node:os';
import path from 'node:path';
import { LARGE_PASSWORD } from '../lib/endpoints';
import { prepareLargeDatabase, repoRoot } from '../lib/large-database';
import { connectInspector, type Inspector } from '../lib/inspector';
import { ensureServerBuilt, freePort, startServer, type RunningServer } from '../lib/server';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 4188);
const KINDS = (process.env.BENCH_DB ?? 'both') === 'both' ? (['postgres', 'pglite'] as const) : ([process.env.BENCH_DB] as ('postgres' | 'pglite')[]);

const CALLS = [
  { name: 'CSV: /api/subtasks/?format=csv', path: '/api/subtasks/?format=csv' },
  { name: 'Excel: /api/subtasks/?format=xlsx', path: '/api/subtasks/?format=xlsx' },
  { name: 'Excel, a tenth: …&project_status=completed', path: '/api/subtasks/?format=xlsx&project_status=completed' },
] as const;
const TENTH = CALLS[2];

/** The rows of a workbook's sheets, its header rows left out, read with exceljs's streaming reader. */
async function workbookRows(bytes: Buffer): Promise<number> {
  let rows = 0;
  for await (const sheet of new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), { worksheets: 'emit', sharedStrings: 'ignore', styles: 'ignore' })) {
    for await (const row of sheet as AsyncIterable<ExcelJS.Row>) if (row.number > 1) rows++;
  }
  return rows;
}

interface Figures {
  seconds: number;
  megabytes: number;
  rows: number;
  /** The most the server held live (heap and buffers) after a full collection, above before. */
  liveGrowthMb: number;
  /** The largest resident size after a full collection, above before. */
  rssAfterGcGrowthMb: number;
  /** The resident high-water mark above the resident size before (garbage included). */
  rssGrowthMb: number;
}

/** Memory readings every this many bytes received. */
const SAMPLE_EVERY = 512 * 1024;
const MB = 1024 * 1024;

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

/** Downloads the call whole on a fresh server, counting as it goes and reading the server's memory after full collections. */
async function download(env: Record<string, string>, call: (typeof CALLS)[number]): Promise<Figures> {
  const inspectPort = await freePort();
  const server = await startServer({ env, port: PORT, nodeArgs: [`--inspect=127.0.0.1:${inspectPort}`] });
  const base = server.origin;
  let inspector: Inspector | undefined;
  try {
    inspector = await connectInspector(inspectPort);
    const token = await signInAsAdmin(base);
    // A small warm-up of the same code path (the admin is assigned nothing): JIT, the pool.
    await (await fetch(`${base}${call.path}${call.path.includes('?') ? '&' : '?'}assigned_to=me`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
    const rssBefore = memoryOf(server, 'VmRSS');
    const collected = async () => {
      await inspector!.collectGarbage();
      return { live: (await inspector!.liveBytes()) / MB, rss: memoryOf(server, 'VmRSS') };
    };
    const start = await collected();
    let peak = start;
    const started = performance.now();
    let sampling = 0;
    const response = await fetch(`${base}${call.path}`, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' } });
    if (!response.ok) throw new Error(`${call.path}: ${response.status}`);
    let bytes = 0;
    let newlines = 0;
    let nextSample = SAMPLE_EVERY;
    const workbook: Uint8Array[] = [];
    const reader = response.body!.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      bytes += chunk.value.length;
      if (call.path.includes('xlsx')) workbook.push(chunk.value);
      else for (let at = chunk.value.indexOf(10); at !== -1; at = chunk.value.indexOf(10, at + 1)) newlines++;
      if (bytes >= nextSample) {
        nextSample += SAMPLE_EVERY;
        const sampleStarted = performance.now();
        const now = await collected();
        sampling += performance.now() - sampleStarted;
        peak = { live: Math.max(peak.live, now.live), rss: Math.max(peak.rss, now.rss) };
      }
    }
    const seconds = (performance.now() - started - sampling) / 1000;
    const rssGrowthMb = memoryOf(server, 'VmHWM') - rssBefore;
    // The CSV has a header line and a line per row; the workbook is read back.
    const rows = call.path.endsWith('csv') ? newlines - 1 : await workbookRows(Buffer.concat(workbook));
    return { seconds, megabytes: bytes / MB, rows, liveGrowthMb: peak.live - start.live, rssAfterGcGrowthMb: peak.rss - start.rss, rssGrowthMb };
  } finally {
    inspector?.close();
    await server.stop();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  ensureServerBuilt();
  const started = new Date();
  const sections: string[] = [];
  for (const kind of KINDS) {
    console.log(`\n=== ${kind} ===`);
    const data = await prepareLargeDatabase(kind);
    try {
      const rounds: Map<string, Figures>[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // Alternating which goes first, so neither always meets the warmer machine.
        const order = round % 2 === 0 ? [...CALLS] : [...CALLS].reverse();
        const figures = new Map<string, Figures>();
        for (const call of order) {
          const result = await download(data.env, call);
          figures.set(call.name, result);
          console.log(
            `${call.name.padEnd(34)} ${result.seconds.toFixed(2)} s  ${result.megabytes.toFixed(1)} MB  live +${result.liveGrowthMb.toFixed(1)} MB  RSS after GC +${result.rssAfterGcGrowthMb.toFixed(0)} MB  RSS high-water +${result.rssGrowthMb.toFixed(0)} MB  ${result.rows} rows`,
          );
        }
        rounds.push(figures);
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
    `# CSV and Excel exports of 100,000 subtasks, and an Excel export of a tenth — ${started.toISOString().slice(0, 10)}`,
    '',
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB; load average at start ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(', ')}. Node ${process.version}.`,
    `Each download on a freshly started server, uncompressed, as the admin of Large Contractor 1 (100,000 subtasks, in the list's order: soonest due first). ${ROUNDS} rounds, alternating order; medians, and per round each whole file's figures beside the tenth's. Memory is read through the server's inspector after a full collection at every ${SAMPLE_EVERY / 1024} KiB received (seconds leave those pauses out).`,
  ].join('\n');
}

function renderSection(kind: string, seedSeconds: number | undefined, rounds: Map<string, Figures>[]): string {
  const row = (name: string) => {
    const figures = rounds.map((round) => round.get(name)!);
    const cell = (of: (figures: Figures) => number, digits: number) => median(figures.map(of)).toFixed(digits);
    return `| ${name} | ${cell((f) => f.seconds, 2)} | ${cell((f) => f.megabytes, 1)} | ${cell((f) => f.liveGrowthMb, 1)} | ${cell((f) => f.rssAfterGcGrowthMb, 0)} | ${cell((f) => f.rssGrowthMb, 0)} |`;
  };
  const files = CALLS.map((call) => {
    const perRound = rounds.map((round) => {
      const file = round.get(call.name)!;
      const tenth = round.get(TENTH.name)!;
      return `${(file.seconds / tenth.seconds).toFixed(2)} × time, live +${file.liveGrowthMb.toFixed(1)} MB against +${tenth.liveGrowthMb.toFixed(1)} MB`;
    });
    const rows = `${call.name}: rows ${rounds.map((round) => round.get(call.name)!.rows).join(', ')}`;
    return call === TENTH ? `${rows}.` : `${rows}; against the tenth, per round: ${perRound.join('; ')}.`;
  });
  return [
    `## ${kind}${seedSeconds ? ` (seeded in ${seedSeconds.toFixed(0)} s)` : ''}`,
    '',
    '| download | seconds to the last byte | MB sent | held live after a full collection, peak growth, MB | RSS after a full collection, peak growth, MB | RSS high-water growth (garbage included), MB |',
    '|---|---|---|---|---|---|',
    ...CALLS.map((call) => row(call.name)),
    '',
    ...files.flatMap((line) => [line, '']),
  ]
    .join('\n')
    .trimEnd();
}

await main();
