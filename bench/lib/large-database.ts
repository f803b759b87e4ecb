import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { repoRoot } from './server';

export { repoRoot };
/** Where the benchmarks create and drop their throwaway databases: an admin connection to the PostgreSQL server. */
export const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Runs `work` on a short-lived admin connection (create, drop, server facts). */
export async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, application_name: 'siteboard-bench' });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Where the server's Unix socket is when PostgreSQL runs on this machine: the server under test
 * reaches it there, as a same-host deployment should. Over loopback TCP every statement cost the
 * server about 40 % more CPU (its writev went through the kernel's TCP stack), which the figures
 * would charge to the app.
 */
const PG_SOCKET_DIR = process.env.BENCH_PG_SOCKET_DIR ?? '/var/run/postgresql';

function localSocketDir(url: URL): string | undefined {
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  return loopback && fs.existsSync(path.join(PG_SOCKET_DIR, `.s.PGSQL.${url.port || 5432}`)) ? PG_SOCKET_DIR : undefined;
}

/** How the server reaches PostgreSQL, for the results' header. */
export function postgresTransport(): string {
  const socketDir = localSocketDir(new URL(PG_ADMIN_URL));
  return socketDir ? `its Unix socket in ${socketDir}` : `TCP to ${new URL(PG_ADMIN_URL).host}`;
}

/** The URL of a database on the admin connection's server, over the local socket when there is one. */
export function databaseUrl(name: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  const socketDir = localSocketDir(url);
  if (socketDir) url.search = `host=${encodeURIComponent(socketDir)}`;
  return url.toString();
}

export interface LargeDatabase {
  kind: 'postgres' | 'pglite';
  /** What the server (and the seed) need in their environment to use it. */
  env: Record<string, string>;
  /** Seconds the seed took; undefined for a reused database. */
  seedSeconds?: number;
  drop(): Promise<void>;
}

/**
 * A brand-new database with the large data: the writes of one run must not tilt the next. For
 * PostgreSQL, BENCH_DATABASE_URL names an already seeded database to reuse instead, and for PGlite
 * BENCH_DATA_DIR a seeded data directory (quicker rounds while tuning; servers run on copies of a
 * PGlite one, but a reused PostgreSQL one keeps what the write runs add, so published figures come
 * from a fresh one).
 */
export async function prepareLargeDatabase(kind: 'postgres' | 'pglite'): Promise<LargeDatabase> {
  const seedStarted = performance.now();
  const reused = process.env.BENCH_DATABASE_URL;
  if (kind === 'postgres' && reused) return { kind, env: { DATABASE_URL: reused }, drop: async () => {} };
  const reusedDir = process.env.BENCH_DATA_DIR;
  if (kind === 'pglite' && reusedDir) return { kind, env: { DATA_DIR: reusedDir }, drop: async () => {} };
  if (kind === 'postgres') {
    const name = `siteboard_bench_${process.pid}_${Date.now()}`;
    await withAdmin((client) => client.query(`create database ${name}`));
    const env = { DATABASE_URL: databaseUrl(name) };
    await run('npm', ['run', '--silent', 'seed:large'], env);
    return {
      kind,
      env,
      seedSeconds: (performance.now() - seedStarted) / 1000,
      drop: async () => {
        await withAdmin((client) => client.query(`drop database if exists ${name} with (force)`));
      },
    };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-bench-'));
  const env = { DATA_DIR: dataDir };
  await run('npm', ['run', '--silent', 'seed:large'], env);
  return { kind, env, seedSeconds: (performance.now() - seedStarted) / 1000, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}

/**
 * Another database with the same data: a PGlite data directory (one server per directory), or a
 * PostgreSQL database made from this one as its template (a server migrates its database when it
 * starts, so a before and an after checkout side by side each need their own: the after's new
 * indexes would otherwise serve the before too).
 */
export async function copyLargeDatabase(data: LargeDatabase): Promise<LargeDatabase> {
  if (data.kind === 'postgres') {
    const source = new URL(data.env.DATABASE_URL!).pathname.slice(1);
    const name = `${source}_copy_${Date.now()}`.slice(0, 63);
    await withAdmin((client) => client.query(`create database ${name} template ${source}`));
    return {
      kind: 'postgres',
      env: { DATABASE_URL: databaseUrl(name) },
      drop: async () => {
        await withAdmin((client) => client.query(`drop database if exists ${name} with (force)`));
      },
    };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-bench-'));
  await fs.promises.cp(data.env.DATA_DIR!, dataDir, { recursive: true });
  fs.rmSync(path.join(dataDir, 'siteboard.lock'), { force: true });
  return { kind: 'pglite', env: { DATA_DIR: dataDir }, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}

function run(command: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
  });
}

