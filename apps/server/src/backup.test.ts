import { execFile } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { like } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { strFromU8, unzipSync } from 'fflate';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from './app';
import { loadOrCreateSecret } from './features/auth/auth.tokens';
import { backupEmbedded, openDatabase, restoreEmbedded, serveEmbeddedBackups, type Database } from './platform';
import { projects } from './schema/projects';
import { DEMO_COMPANY_NAME, DEMO_COMPANY_PASSWORD, DEMO_PASSWORD, seedDemo } from './scripts/demo-data';
import { adminQuery, createTestDatabase, isPostgresReachable, TEST_DATABASE_URL, type TestDatabase } from './test/build-app';
import { unpackPgliteSnapshot } from './test/database-templates';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const WRITERS = 2;
/** Acknowledged writes each writer has made before the backup starts: the backup is taken under load. */
const WRITES_BEFORE = 5;

/** The demo company's admin, signed in over HTTP as the web app signs in. */
async function signInAdmin(base: string) {
  const company = await fetch(`${base}/api/verify-company-password/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ company_name: DEMO_COMPANY_NAME, password: DEMO_COMPANY_PASSWORD }) });
  const { company_id } = (await company.json()) as { company_id: number };
  const tokens = await fetch(`${base}/api/token/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: DEMO_PASSWORD, role: 'admin', company_id }) });
  expect(tokens.status).toBe(200);
  return ((await tokens.json()) as { access: string }).access;
}

const authorized = (token: string) => ({ authorization: `Bearer ${token}` });

/** A photo on one of the demo company's subtasks: its id and the bytes the server serves for it. */
async function uploadPhoto(base: string, token: string) {
  const subtasks = (await (await fetch(`${base}/api/subtasks/?limit=100`, { headers: authorized(token) })).json()) as { id: number; major_task: { project: { status: string } } }[];
  // A completed project's work takes no more photos.
  const subtask = subtasks.find((candidate) => candidate.major_task.project.status !== 'completed');
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#b05a2a' } }).jpeg().toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'pour.jpg');
  const uploaded = await fetch(`${base}/api/subtasks/${subtask!.id}/attachments/`, { method: 'POST', headers: authorized(token), body: form });
  expect(uploaded.status).toBe(201);
  const { id, url } = (await uploaded.json()) as { id: number; url: string };
  return { id, url, bytes: Buffer.from(await (await fetch(`${base}${url}`, { headers: authorized(token) })).arrayBuffer()) };
}

/** A drawing (an image sheet) rendered to its tiles and preview under the data directory's `sheets/`. */
async function uploadSheet(base: string, token: string) {
  const projects = (await (await fetch(`${base}/api/projects/?status=ongoing`, { headers: authorized(token) })).json()) as { id: number }[];
  const png = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#2a5ab0' } }).png().toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'level-2.png');
  const uploaded = await fetch(`${base}/api/projects/${projects[0]!.id}/sheets/`, { method: 'POST', headers: authorized(token), body: form });
  expect(uploaded.status).toBe(202);
  const [{ id }] = (await uploaded.json()) as { id: number }[];
  let sheet: { status: string; preview_url: string } | undefined;
  for (const deadline = Date.now() + 60_000; sheet?.status !== 'ready'; ) {
    expect(Date.now(), `sheet ${id} still ${sheet?.status}`).toBeLessThan(deadline);
    if (sheet) await new Promise((resolve) => setTimeout(resolve, 100));
    sheet = (await (await fetch(`${base}/api/sheets/${id}/`, { headers: authorized(token) })).json()) as typeof sheet;
  }
  const preview = sheet!.preview_url;
  return { preview, bytes: Buffer.from(await (await fetch(`${base}${preview}`, { headers: authorized(token) })).arrayBuffer()) };
}

/**
 * Writers creating projects one after the other, each keeping the names it sent (in order) and
 * those the server acknowledged; a write is acknowledged when its 201 has arrived.
 */
function startWriters(base: string, token: string, managerId: number, prefix: string) {
  let stopped = false;
  const writers = Array.from({ length: WRITERS }, () => ({ sent: [] as string[], acknowledged: [] as string[], done: Promise.resolve() }));
  for (const [index, writer] of writers.entries()) {
    writer.done = (async () => {
      for (let n = 0; !stopped; n++) {
        const name = `${prefix}-w${index}-${String(n).padStart(4, '0')}`;
        writer.sent.push(name);
        const response = await fetch(`${base}/api/projects/`, {
          method: 'POST',
          headers: { ...authorized(token), 'content-type': 'application/json' },
          body: JSON.stringify({ name, description: 'written under load', start_date: '2026-12-01', end_date: '2027-03-01', status: 'planned', manager_id: managerId }),
        });
        expect(response.status).toBe(201);
        writer.acknowledged.push(name);
        // A steady load, not a flood: the backup's own processes share the machine's two cores.
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
  }
  return {
    writers,
    async until(count: number) {
      while (writers.some((writer) => writer.acknowledged.length < count)) await new Promise((resolve) => setTimeout(resolve, 10));
    },
    async stop() {
      stopped = true;
      await Promise.all(writers.map((writer) => writer.done));
    },
  };
}

/**
 * What a restore must hold: every write acknowledged before the backup began, and for each writer
 * the writes it sent up to some point and none after (a consistent instant: no write missing
 * between two that are there).
 */
async function expectConsistentRestore(database: Database, prefix: string, before: string[][], sent: string[][]) {
  const rows = await database.db.select({ name: projects.name }).from(projects).where(like(projects.name, `${prefix}-%`));
  const names = new Set(rows.map((row) => row.name));
  for (const [writer, acknowledged] of before.entries()) {
    for (const name of acknowledged) expect(names.has(name), `${name}, acknowledged before the backup`).toBe(true);
    const restored = sent[writer]!.filter((name) => names.has(name));
    expect(restored).toEqual(sent[writer]!.slice(0, restored.length));
  }
  return names.size;
}

const managerIdOf = async (base: string, token: string) => ((await (await fetch(`${base}/api/users/?role=manager&limit=1`, { headers: authorized(token) })).json()) as { id: number }[])[0]!.id;

describe('npm run backup and npm run restore of the embedded database', { timeout: 120_000 }, () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-backup-test-'));
  const dataDir = path.join(root, 'data');
  const env = (dir: string) => ({ ...process.env, DATA_DIR: dir, DATABASE_URL: '' });
  let database: Database | undefined;
  let app: App | undefined;
  let backups: { close(): Promise<void> } | undefined;

  afterAll(async () => {
    await backups?.close();
    await app?.close();
    await database?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  async function openRestored(dir: string) {
    const restored = await openDatabase({ kind: 'pglite', dataDir: dir });
    const restoredApp = await buildApp({ database: restored, jwtSecret: loadOrCreateSecret(undefined, dir), sheetsDir: path.join(dir, 'sheets') });
    return { restored, restoredApp };
  }

  it('backs up a seeded company from the running server under write load, and restores every acknowledged write', async () => {
    // The server as server.ts runs it: the database in its data directory, its JWT secret beside it, backups served.
    // Its database made by an earlier start (the tests' migrated one): what is tested here is the backup, not initdb.
    unpackPgliteSnapshot(dataDir);
    database = await openDatabase({ kind: 'pglite', dataDir });
    await seedDemo(database.db);
    const secret = loadOrCreateSecret(undefined, dataDir);
    app = await buildApp({ database, jwtSecret: secret, sheetsDir: path.join(dataDir, 'sheets') });
    await app.listen({ port: 0, host: '127.0.0.1' });
    // Copies killed processes left behind go as the server starts; a running process's stays (an export may read it).
    const stale = path.join(dataDir, `snapshot-${2 ** 22 + 1}-1.partial`);
    const live = path.join(dataDir, `snapshot-${process.pid}-1.partial`);
    for (const dir of [stale, live]) fs.mkdirSync(path.join(dir, 'data'), { recursive: true });
    backups = await serveEmbeddedBackups(database, app.log);
    expect([fs.existsSync(stale), fs.existsSync(live)]).toEqual([false, true]);
    fs.rmSync(live, { recursive: true });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const token = await signInAdmin(base);
    const photo = await uploadPhoto(base, token);
    const drawing = await uploadSheet(base, token);
    const load = startWriters(base, token, await managerIdOf(base, token), 'online');
    await load.until(WRITES_BEFORE);
    const before = load.writers.map((writer) => [...writer.acknowledged]);

    const file = path.join(root, 'siteboard.tar.gz');
    const backup = await run('npm', ['run', '--silent', 'backup', '--', file], { cwd: repoRoot, env: env(dataDir) });
    await load.stop();

    expect(backup.stdout).toContain('from the running server');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const restoredDir = path.join(root, 'restored');
    await run('npm', ['run', '--silent', 'restore', '--', file], { cwd: repoRoot, env: env(restoredDir) });
    expect(fs.readFileSync(path.join(restoredDir, 'jwt-secret'), 'utf8')).toBe(secret);
    const { restored, restoredApp } = await openRestored(restoredDir);
    try {
      await expectConsistentRestore(restored, 'online', before, load.writers.map((writer) => writer.sent));
      // The token the running server signed is good there too (same secret, same people), and the photo's bytes are the same.
      const image = await restoredApp.inject({ method: 'GET', url: photo.url, headers: authorized(token) });
      expect(image.statusCode).toBe(200);
      expect(image.rawPayload.equals(photo.bytes)).toBe(true);
      // The drawing's files came along with its row: its preview is served from the restored directory.
      const preview = await restoredApp.inject({ method: 'GET', url: drawing.preview, headers: authorized(token) });
      expect(preview.statusCode).toBe(200);
      expect(preview.rawPayload.equals(drawing.bytes)).toBe(true);
      expect((await restoredApp.inject({ method: 'GET', url: '/api/ready/' })).statusCode).toBe(200);
    } finally {
      await restoredApp.close();
      await restored.close();
    }
  });

  it('exports a company from the running server too: a copy taken now, the server serving on, nothing left behind', async () => {
    expect(app).toBeDefined();
    const base = `http://127.0.0.1:${(app!.server.address() as AddressInfo).port}`;
    const token = await signInAdmin(base);
    const load = startWriters(base, token, await managerIdOf(base, token), 'exported');
    await load.until(WRITES_BEFORE);
    const before = load.writers.map((writer) => [...writer.acknowledged]);

    const file = path.join(root, 'company.zip');
    const exported = await run('npm', ['run', '--silent', 'export-company', '--', DEMO_COMPANY_NAME, file], { cwd: repoRoot, env: env(dataDir) });
    await load.stop();

    expect(exported.stdout).toContain('The server is running: reading a copy of its database taken now');
    expect(exported.stdout).toContain(`Exported ${DEMO_COMPANY_NAME} into ${file}`);
    const files = unzipSync(fs.readFileSync(file));
    const names = new Set((parse(strFromU8(files['projects.csv']!), { columns: true }) as { name: string }[]).map((project) => project.name));
    // Every project acknowledged before the export began, and each writer's up to some point and none after.
    for (const [writer, acknowledged] of before.entries()) {
      for (const name of acknowledged) expect(names.has(name), name).toBe(true);
      const sent = load.writers[writer]!.sent;
      const kept = sent.filter((name) => names.has(name));
      expect(kept).toEqual(sent.slice(0, kept.length));
    }
    expect(Object.keys(files).some((name) => name.startsWith('photos/'))).toBe(true);
    expect(Object.keys(files).some((name) => name.startsWith('drawings/'))).toBe(true);
    // The copy is gone, and the server never stopped.
    expect(fs.readdirSync(dataDir).filter((name) => name.startsWith('snapshot-'))).toEqual([]);
    expect((await fetch(`${base}/api/ready/`)).status).toBe(200);
  });

  // The commands' other paths, through the functions they call (starting them costs a process each).
  it('backs up the stopped data directory too, with everything it had', async () => {
    expect(database).toBeDefined();
    const written = (await database!.db.select({ name: projects.name }).from(projects).where(like(projects.name, 'online-%'))).length;
    await backups!.close();
    await app!.close();
    await database!.close();
    backups = app = database = undefined;

    const summary = await backupEmbedded(dataDir, path.join(root, 'stopped.tar.gz'));

    expect(summary.taken).toBe('offline');
    const restoredDir = path.join(root, 'restored-stopped');
    await restoreEmbedded(restoredDir, path.join(root, 'stopped.tar.gz'));
    const { restored, restoredApp } = await openRestored(restoredDir);
    try {
      expect((await restored.db.select({ name: projects.name }).from(projects).where(like(projects.name, 'online-%'))).length).toBe(written);
    } finally {
      await restoredApp.close();
      await restored.close();
    }
  });

  it('refuses to restore into a data directory that is not empty, and leaves it as it was', async () => {
    const before = fs.readdirSync(dataDir).sort();

    await expect(restoreEmbedded(dataDir, path.join(root, 'stopped.tar.gz'))).rejects.toThrow('is not empty: restore into an empty one');
    expect(fs.readdirSync(dataDir).sort()).toEqual(before);
  });
});

describe('pg_dump and pg_restore of PostgreSQL, as the README shows them', { timeout: 120_000 }, async () => {
  const skip = !(await isPostgresReachable());
  let database: TestDatabase;
  let app: App;
  const restoredName = `siteboard_test_restored_${process.pid}_${Date.now()}`;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-pg-backup-test-'));

  beforeAll(async () => {
    if (skip) return;
    database = await createTestDatabase('postgres');
    await seedDemo(database.db);
    app = await buildApp({ database, jwtSecret: 'pg-backup-test-secret-that-is-long-enough' });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    if (skip) return;
    await app?.close();
    await database?.drop();
    await adminQuery(`drop database if exists ${restoredName} with (force)`);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it.skipIf(skip)('dumps a seeded company under write load and restores every acknowledged write', async () => {
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const token = await signInAdmin(base);
    const load = startWriters(base, token, await managerIdOf(base, token), 'dumped');
    await load.until(WRITES_BEFORE);
    const before = load.writers.map((writer) => [...writer.acknowledged]);

    const dump = path.join(root, 'siteboard.dump');
    await run('pg_dump', ['--format=custom', `--file=${dump}`, database.url!]);
    await load.stop();
    await adminQuery(`create database ${restoredName}`);
    const restoredUrl = new URL(TEST_DATABASE_URL);
    restoredUrl.pathname = `/${restoredName}`;
    await run('pg_restore', ['--no-owner', `--dbname=${restoredUrl}`, dump]);

    // The README's check: SiteBoard starts on it (nothing left to migrate) and is ready.
    const restored = await openDatabase({ kind: 'postgres', url: restoredUrl.toString(), poolSize: 2 });
    const restoredApp = await buildApp({ database: restored, jwtSecret: 'pg-backup-test-secret-that-is-long-enough' });
    try {
      await expectConsistentRestore(restored, 'dumped', before, load.writers.map((writer) => writer.sent));
      expect((await restoredApp.inject({ method: 'GET', url: '/api/ready/' })).statusCode).toBe(200);
    } finally {
      await restoredApp.close();
      await restored.close();
    }
  });
});
