/**
 * `npx tsx bench/start/sweep-memory-bench.ts` — the embedded server's memory through its first
 * notification sweep on an existing data directory with the large data (87,252 notifications to
 * make), and once idle after it.
 *
 * Each start gets its own copy of one seeded data directory (BENCH_LARGE_DIR names one already
 * seeded with `npm run seed:large`; else one is seeded first). For each round and each server
 * (this checkout; with BENCH_BEFORE_DIR an earlier one, see bench/lib/server.ts; with
 * BENCH_VARIANTS more runs of this checkout with extra environment, `name:KEY=VALUE,KEY=VALUE;…`,
 * where NODE_ARGS=… gives node's own arguments, space-separated),
 * interleaved, it samples every 200 ms from spawning: the resident memory of the server's process
 * tree and, from /proc/<pid>/smaps, of PGlite's WebAssembly memory (the one mapping of gigabytes
 * that V8 reserves for a wasm memory with its guard region). The run ends BENCH_IDLE_SECONDS
 * (default 20) after the sweep's log line; the sweep's time is from 5 s after the server listened
 * (its first sweep's delay) to that line. Prints a table with medians and the ratio to before;
 * BENCH_OUT writes it to a file too.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepareLargeDatabase } from '../lib/large-database';
import { beforeCheckout, benchVariants, ensureServerBuilt, startServer, thisCheckout, type Checkout } from '../lib/server';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 20);
const SWEEP_TIMEOUT_SECONDS = 300;
/** notifications.plugin.ts: the first sweep, this long after start. */
const FIRST_SWEEP_DELAY_MS = 5_000;

interface Server {
  label: string;
  checkout: Checkout;
  env: Record<string, string>;
  nodeArgs: string[];
}

interface Run {
  /** Seconds from spawning to the sweep's log line (the sweep starts 5 s after the server is ready). */
  sweepEndS: number;
  sweepS: number;
  created: number;
  peakMiB: number;
  peakWasmMiB: number;
  idleMiB: number;
  idleWasmMiB: number;
  idleAnonMiB: number;
  trace: string;
}

/**
 * The resident KiB of the WebAssembly memories and of all anonymous mappings. V8 reserves a wasm
 * memory with its guard region in one go and makes the memory's current size readable and
 * writable: in smaps, a `rw-p` mapping right before a `---p` one of gigabytes.
 */
function smaps(pid: number): { wasmKiB: number; anonKiB: number } {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return { wasmKiB: 0, anonKiB: 0 };
  }
  let wasmKiB = 0;
  let anonKiB = 0;
  let previous: { end: number; writable: boolean; anonymous: boolean; kib: number } | undefined;
  for (const line of text.split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (header) {
      const start = parseInt(header[1]!, 16);
      const end = parseInt(header[2]!, 16);
      if (previous?.writable && previous.end === start && header[3] === '---p' && end - start >= 2 ** 32) wasmKiB += previous.kib;
      previous = { end, writable: header[3] === 'rw-p', anonymous: header[4] === '0' && (header[5] ?? '').trim() === '', kib: 0 };
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && previous) {
      previous.kib = Number(rss[1]);
      if (previous.anonymous) anonKiB += previous.kib;
    }
  }
  return { wasmKiB, anonKiB };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function seeded(): Promise<{ dir: string; drop(): Promise<void> }> {
  if (process.env.BENCH_LARGE_DIR) return { dir: process.env.BENCH_LARGE_DIR, drop: async () => {} };
  const large = await prepareLargeDatabase('pglite');
  return { dir: large.env.DATA_DIR!, drop: large.drop };
}

function servers(): Server[] {
  const list: Server[] = [];
  const before = beforeCheckout();
  if (before) list.push({ label: 'before', checkout: before, env: {}, nodeArgs: [] });
  list.push({ label: 'after', checkout: thisCheckout, env: {}, nodeArgs: [] });
  for (const variant of benchVariants()) list.push({ ...variant, checkout: thisCheckout });
  return list;
}

async function copyOf(dir: string): Promise<string> {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-sweep-'));
  await new Promise<void>((resolve, reject) => {
    const child = spawn('cp', ['-a', `${dir}/.`, copy], { stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`cp exited with ${code}`))));
  });
  fs.rmSync(path.join(copy, 'siteboard.lock'), { force: true });
  return copy;
}

async function once(server: Server, large: string): Promise<Run> {
  const dataDir = await copyOf(large);
  const spawned = performance.now();
  const running = await startServer({ env: { DATA_DIR: dataDir, LOG_LEVEL: 'info', ...server.env }, checkout: server.checkout, nodeArgs: server.nodeArgs, stdio: 'collect', readyTimeoutMs: 120_000 });
  try {
    const samples: { s: number; rssMiB: number; wasmMiB: number; anonMiB: number }[] = [];
    let sweepEndS: number | undefined;
    let created = 0;
    let sweepS = 0;
    for (;;) {
      const s = (performance.now() - spawned) / 1000;
      const { wasmKiB, anonKiB } = smaps(running.pid);
      samples.push({ s, rssMiB: running.rssKiB() / 1024, wasmMiB: wasmKiB / 1024, anonMiB: anonKiB / 1024 });
      if (sweepEndS === undefined) {
        const line = running.output().find((text) => text.includes('notification sweep'));
        if (line) {
          sweepEndS = s;
          const parsed = JSON.parse(line) as { created?: number; time?: number };
          created = parsed.created ?? 0;
          // The first sweep's timer starts as the plugins register, just before the server listens.
          const listening = running.output().find((text) => text.includes('Server listening'));
          sweepS = listening ? ((parsed.time ?? 0) - (JSON.parse(listening) as { time: number }).time - FIRST_SWEEP_DELAY_MS) / 1000 : 0;
        } else if (s > SWEEP_TIMEOUT_SECONDS) {
          throw new Error(`No sweep within ${SWEEP_TIMEOUT_SECONDS} s:\n${running.output().slice(-10).join('\n')}`);
        }
      } else if (s > sweepEndS + IDLE_SECONDS) {
        break;
      }
      await sleep(200);
    }
    const last = samples[samples.length - 1]!;
    const every = (seconds: number) => samples.filter((sample, index) => index === 0 || Math.floor(sample.s / seconds) !== Math.floor(samples[index - 1]!.s / seconds));
    return {
      sweepEndS: sweepEndS!,
      sweepS,
      created,
      peakMiB: Math.max(...samples.map((sample) => sample.rssMiB)),
      peakWasmMiB: Math.max(...samples.map((sample) => sample.wasmMiB)),
      idleMiB: last.rssMiB,
      idleWasmMiB: last.wasmMiB,
      idleAnonMiB: last.anonMiB,
      trace: every(2)
        .map((sample) => `${sample.s.toFixed(0)}s ${sample.rssMiB.toFixed(0)}/${sample.wasmMiB.toFixed(0)}`)
        .join(' '),
    };
  } finally {
    await running.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const started = new Date();
  const loadAtStart = os.loadavg();
  ensureServerBuilt();
  const list = servers();
  const large = await seeded();
  const runs = new Map<string, Run[]>();
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const server of list) {
        const run = await once(server, large.dir);
        runs.set(server.label, [...(runs.get(server.label) ?? []), run]);
        console.log(
          `${server.label.padEnd(14)} sweep done at ${run.sweepEndS.toFixed(1)} s (${run.sweepS.toFixed(1)} s, ${run.created} created), peak ${run.peakMiB.toFixed(0)} MiB (wasm ${run.peakWasmMiB.toFixed(0)}), idle ${run.idleMiB.toFixed(0)} MiB (wasm ${run.idleWasmMiB.toFixed(0)}, anonymous ${run.idleAnonMiB.toFixed(0)})`,
        );
        console.log(`  rss/wasm MiB: ${run.trace}`);
      }
    }
  } finally {
    await large.drop();
  }
  const base = runs.get('before');
  const figure = (values: number[], unit: string, digits = 0) => `${median(values).toFixed(digits)}${unit} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
  const ratio = (label: string, pick: (run: Run) => number) => (base && label !== 'before' ? ` ×${(median(runs.get(label)!.map(pick)) / median(base.map(pick))).toFixed(2)}` : '');
  const rows = list.map(({ label }) => {
    const taken = runs.get(label)!;
    return `| ${label} | ${[...new Set(taken.map((run) => run.created))].join(', ')} | ${figure(taken.map((run) => run.sweepS), ' s', 1)}${ratio(label, (run) => run.sweepS)} | ${figure(taken.map((run) => run.peakMiB), ' MiB')}${ratio(label, (run) => run.peakMiB)} | ${figure(taken.map((run) => run.peakWasmMiB), ' MiB')} | ${figure(taken.map((run) => run.idleMiB), ' MiB')}${ratio(label, (run) => run.idleMiB)} | ${figure(taken.map((run) => run.idleWasmMiB), ' MiB')} |`;
  });
  const markdown = [
    `Sweep memory, ${started.toISOString()}: ${ROUNDS} rounds, interleaved; median (min–max); idle = ${IDLE_SECONDS} s after the sweep's log line. Load average ${loadAtStart.map((load) => load.toFixed(1)).join(' ')} at the start, ${os.loadavg().map((load) => load.toFixed(1)).join(' ')} at the end.`,
    '',
    '| server | notifications created | sweep | peak RSS (tree) | peak wasm memory | idle RSS after the sweep | idle wasm memory |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
  console.log(`\n${markdown}`);
  if (process.env.BENCH_OUT) fs.appendFileSync(process.env.BENCH_OUT, `${markdown}\n\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
