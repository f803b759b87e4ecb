import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The PostgreSQL server the throwaway databases are made on. */
export const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';

export interface LargeDatabase {
  /** What the server (and the seed) need in their environment to use it. */
  env: Record<string, string>;
  seedSeconds: number;
  drop(): Promise<void>;
}

/** A brand-new database with the large data: the writes of one run must not tilt the next. */
export async function prepareLargeDatabase(kind: 'postgres' | 'pglite'): Promise<LargeDatabase> {
  const seedStarted = performance.now();
  if (kind === 'postgres') {
    const name = `siteboard_bench_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: `${PG_URL}/postgres` });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const env = { DATABASE_URL: `${PG_URL}/${name}` };
    await run('npm', ['run', '--silent', 'seed:large'], env);
    return {
      env,
      seedSeconds: (performance.now() - seedStarted) / 1000,
      drop: async () => {
        const client = new pg.Client({ connectionString: `${PG_URL}/postgres` });
        await client.connect();
        await client.query(`drop database if exists ${name} with (force)`);
        await client.end();
      },
    };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-bench-'));
  const env = { DATA_DIR: dataDir };
  await run('npm', ['run', '--silent', 'seed:large'], env);
  return { env, seedSeconds: (performance.now() - seedStarted) / 1000, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}

function run(command: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
  });
}

