/**
 * `npm run bench:start` — how fast the server starts and how much memory it holds when idle.
 *
 * For each case (PostgreSQL; embedded on a fresh data directory; embedded on an existing one,
 * with the large data) and each checkout (this one, compiled as `npm start` runs it, and with
 * BENCH_BEFORE_DIR an earlier one, see bench/lib/server.ts), it starts the server BENCH_ROUNDS
 * times (default 3), cases interleaved, and records the time from spawning the process to the
 * first healthy /api/health/ and the resident memory of the server's whole process tree (tsx
 * and its helpers included) once it has been idle for BENCH_IDLE_SECONDS (default 5) and after a
 * few reads. Writes bench/results/start.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { copyLargeDatabase, databaseUrl, prepareLargeDatabase, withAdmin, type LargeDatabase } from '../lib/large-database';
import { checkoutsToMeasure, ensureServerBuilt, repoRoot, startServer, thisCheckout } from '../lib/server';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 5);

interface Case {
  name: string;
  /** A fresh environment for one start (a new data directory, or the shared database). */
  env(): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }>;
}

interface Sample {
  startMs: number;
  idleMiB: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const started = new Date();
  const loadAtStart = os.loadavg()[0]!;
  ensureServerBuilt();
  const checkouts = checkoutsToMeasure();
  const postgresName = `siteboard_bench_start_${process.pid}`;
  await withAdmin((client) => client.query(`create database ${postgresName}`));
  const large: LargeDatabase = await prepareLargeDatabase('pglite');
  const cases: Case[] = [
    { name: 'PostgreSQL (empty database, migrated on the first start)', env: async () => ({ env: { DATABASE_URL: databaseUrl(postgresName) }, cleanup: async () => {} }) },
    {
      name: 'embedded, fresh data directory (creates the database)',
      env: async () => {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-start-'));
        return { env: { DATA_DIR: dataDir }, cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
      },
    },
    {
      name: 'embedded, existing data directory (the large data)',
      env: async () => {
        const copy = await copyLargeDatabase(large);
        return { env: copy.env, cleanup: copy.drop };
      },
    },
  ];
  const samples = new Map<string, Sample[]>();
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const testCase of cases) {
        for (const checkout of checkouts) {
          const { env, cleanup } = await testCase.env();
          const server = await startServer({ env, checkout, stdio: 'collect' });
          try {
            // Idle: what is left once start-up work is over and a few requests have come and gone.
            for (let read = 0; read < 5; read++) await fetch(`${server.origin}/api/health/`);
            await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
            const sample = { startMs: server.startMs, idleMiB: server.rssKiB() / 1024 };
            const key = `${checkout.label}\u0000${testCase.name}`;
            samples.set(key, [...(samples.get(key) ?? []), sample]);
            console.log(`${checkout.label.padEnd(7)} ${testCase.name.padEnd(56)} healthy after ${(sample.startMs / 1000).toFixed(2)} s, idle RSS ${sample.idleMiB.toFixed(0)} MiB`);
          } finally {
            await server.stop();
            await cleanup();
          }
        }
      }
    }
  } finally {
    await large.drop();
    await withAdmin((client) => client.query(`drop database if exists ${postgresName} with (force)`));
  }

  const rows = cases.flatMap((testCase) =>
    checkouts.map((checkout) => {
      const taken = samples.get(`${checkout.label}\u0000${testCase.name}`) ?? [];
      const starts = taken.map((sample) => sample.startMs / 1000);
      const memory = taken.map((sample) => sample.idleMiB);
      return `| ${testCase.name} | ${checkout.label} | ${median(starts).toFixed(2)} s (${Math.min(...starts).toFixed(2)}–${Math.max(...starts).toFixed(2)}) | ${median(memory).toFixed(0)} MiB (${Math.min(...memory).toFixed(0)}–${Math.max(...memory).toFixed(0)}) |`;
    }),
  );
  const servers = checkouts.map((checkout) => `${checkout.label}: ${checkout === thisCheckout ? 'node apps/server/dist/server.js (what npm start runs once built)' : `node --import tsx apps/server/src/server.ts (what npm start ran then) in ${checkout.root}`}`);
  const markdown = [
    `# Start time and idle memory — ${started.toISOString().slice(0, 10)}`,
    '',
    `\`npx tsx bench/start/start-bench.ts\`${process.env.BENCH_BEFORE_DIR ? ' with BENCH_BEFORE_DIR' : ''}: ${ROUNDS} starts per case and checkout, interleaved; median (min–max). Start = spawning the server process to its first healthy /api/health/ (the build already there). Idle RSS = resident memory of the server's process tree (tsx and esbuild helpers included, where they run), ${IDLE_SECONDS} s after five health checks.`,
    '',
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; 1-minute load average ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end (other agents' work shares the 2 cores: absolute start times stretch with it).`,
    '',
    `Servers: ${servers.join('; ')}.`,
    '',
    '| case | code | start to healthy | idle RSS |',
    '|---|---|---:|---:|',
    ...rows,
  ].join('\n');
  const file = path.join(repoRoot, 'bench/results', 'start.md');
  fs.writeFileSync(file, `${markdown}\n`);
  console.log(`\nWrote ${path.relative(repoRoot, file)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
