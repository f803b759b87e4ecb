import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { adminQuery, isPostgresReachable, TEST_DATABASE_URL } from '../../test/build-app';
import { compiledForTests } from '../../test/compiled';
import { migrationsFolder } from './client';

const INSTANCES = 4;
const instanceScript = fileURLToPath(new URL('../../test/open-database-process.ts', import.meta.url));
const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };

interface Instance {
  /** Resolves once the process waits for its go. */
  waiting: Promise<void>;
  go(): void;
  exited: Promise<{ code: number | null; output: string }>;
}

function startInstance(script: string, url: string): Instance {
  const child = spawn(process.execPath, [script], { env: { ...process.env, DATABASE_URL: url }, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  let markWaiting: () => void;
  const waiting = new Promise<void>((resolve) => (markWaiting = resolve));
  child.stdout.on('data', (chunk) => {
    output += chunk;
    if (output.includes('waiting')) markWaiting();
  });
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; output: string }>((resolve) => child.once('exit', (code) => resolve({ code, output })));
  return { waiting, go: () => child.stdin.write('go\n'), exited };
}

const name = `siteboard_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;

describe('instances starting at once on a new PostgreSQL database', async () => {
  const skip = !(await isPostgresReachable());
  afterAll(async () => {
    if (!skip) await adminQuery(`drop database if exists ${name} with (force)`);
  });

  it.skipIf(skip)('migrate it exactly once, and every one of them starts', { timeout: 120_000 }, async () => {
    await adminQuery(`create database ${name}`);
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    // Compiled once, as the build compiles the server: each process then starts in a fraction of a second.
    const script = await compiledForTests(instanceScript, 'open-database-process');
    const instances = Array.from({ length: INSTANCES }, () => startInstance(script, url.toString()));
    // Each process is loaded and waiting (on a busy machine that takes a while), then all go together.
    await Promise.all(instances.map((instance) => instance.waiting));
    for (const instance of instances) instance.go();

    const results = await Promise.all(instances.map((instance) => instance.exited));

    expect(results.map((result) => (result.code === 0 ? 0 : result.output))).toEqual(Array(INSTANCES).fill(0));
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      const { rows } = await client.query<{ applied: number; distinct: number }>('select count(*)::int as applied, count(distinct created_at)::int as distinct from drizzle.__drizzle_migrations');
      expect(rows[0]).toEqual({ applied: journal.entries.length, distinct: journal.entries.length });
    } finally {
      await client.end();
    }
  });
});
