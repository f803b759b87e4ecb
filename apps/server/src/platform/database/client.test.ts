import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { adminQuery, createTestDatabase, isPostgresReachable } from '../../test/build-app';
import { PGlite } from '@electric-sql/pglite';
import { pgliteSnapshotPath } from '../../test/database-templates';
import { migrationsFolder, openDatabase, type Database } from './client';
import { DataDirLockedError, lockDataDir, processStartTime } from './data-dir-lock';
import { migrationsHash } from './embedded-template';
import { openPool } from './statements';
import { companies } from '../../schema/companies';

const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-lock-test-'));

afterAll(() => fs.rmSync(tempRoot, { recursive: true, force: true }));

function lockedDataDir(content: string): string {
  const dataDir = fs.mkdtempSync(path.join(tempRoot, 'data-'));
  fs.writeFileSync(path.join(dataDir, 'siteboard.lock'), content);
  return dataDir;
}

const lockOf = (pid: number, started = processStartTime(pid)) => JSON.stringify({ pid, started });

describe('the PGlite data directory lock', () => {
  it('refuses a directory locked by another live process, naming it', async () => {
    const dataDir = lockedDataDir(lockOf(process.ppid));

    const opening = openDatabase({ kind: 'pglite', dataDir });

    await expect(opening).rejects.toThrow(DataDirLockedError);
    await expect(opening).rejects.toThrow(`in use by another SiteBoard process (pid ${process.ppid})`);
  });

  // In a container the server is pid 1 on every start, so a killed server's lock names the new process itself.
  // Creates a database on disk (from the build's template, else initdb in a child process): slow on a busy machine.
  it('takes over a lock that names its own pid, and releases it on close', { timeout: 90_000 }, async () => {
    const dataDir = lockedDataDir(lockOf(process.pid));

    const database = await openDatabase({ kind: 'pglite', dataDir });
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'siteboard.lock'), 'utf8'))).toEqual({ pid: process.pid, started: processStartTime(process.pid) });
    await database.close();

    expect(fs.existsSync(path.join(dataDir, 'siteboard.lock'))).toBe(false);
  });

  // After a crash and a reboot the dead server's pid may belong to any other process.
  it('takes over a lock whose pid now belongs to a process that started at another time', async () => {
    const dataDir = lockedDataDir(lockOf(process.ppid, '1'));

    const release = lockDataDir(dataDir);

    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'siteboard.lock'), 'utf8')).pid).toBe(process.pid);
    release();
  });

  it('still honours the bare pid an older server wrote while that pid runs', async () => {
    const dataDir = lockedDataDir(String(process.ppid));

    expect(() => lockDataDir(dataDir)).toThrow(DataDirLockedError);
  });
});

describe('a new embedded data directory', () => {
  const migrationCount = fs.readdirSync(migrationsFolder).filter((file) => file.endsWith('.sql')).length;
  const appliedMigrations = async (database: Database) =>
    ((await database.db.execute(sql`select count(*)::int as applied from drizzle.__drizzle_migrations`)) as unknown as { rows: { applied: number }[] }).rows[0]?.applied;
  const companyNames = async (database: Database) => (await database.db.select({ name: companies.name }).from(companies)).map((row) => row.name);

  /** A build's template, made here from the tests' migrated snapshot (same PGlite, same migrations). */
  async function makeTemplates(): Promise<string> {
    const root = fs.mkdtempSync(path.join(tempRoot, 'templates-'));
    const template = await PGlite.create(path.join(root, migrationsHash()), { loadDataDir: new Blob([fs.readFileSync(pgliteSnapshotPath())]) });
    await template.close();
    return root;
  }

  it('starts as a copy of the migrated template, and copies of one template share nothing', { timeout: 90_000 }, async () => {
    const templates = await makeTemplates();
    const first = await openDatabase({ kind: 'pglite', dataDir: fs.mkdtempSync(path.join(tempRoot, 'data-')), templates });
    try {
      expect(await appliedMigrations(first)).toBe(migrationCount);
      await first.db.insert(companies).values({ name: 'North Yard', passwordHash: 'x' });
      expect(await companyNames(first)).toEqual(['North Yard']);
    } finally {
      await first.close();
    }

    const second = await openDatabase({ kind: 'pglite', dataDir: fs.mkdtempSync(path.join(tempRoot, 'data-')), templates });
    try {
      expect(await companyNames(second)).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it('without a template for these migrations, is created and migrated all the same', { timeout: 90_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(tempRoot, 'data-'));

    const database = await openDatabase({ kind: 'pglite', dataDir, templates: fs.mkdtempSync(path.join(tempRoot, 'no-templates-')) });
    try {
      expect(await appliedMigrations(database)).toBe(migrationCount);
    } finally {
      await database.close();
    }
  });
});

describe('statements on PostgreSQL', () => {
  it('prepares a repeated statement once per connection and reuses its one generic plan', async ({ skip }) => {
    if (!(await isPostgresReachable())) skip();
    const database = await createTestDatabase('postgres');
    try {
      const plans = await database.db.transaction(async (tx) => {
        const companyNamed = (name: string) => tx.select({ id: companies.id }).from(companies).where(eq(companies.name, name));
        for (const name of ['North Yard', 'South Yard', 'East Yard']) await companyNamed(name);
        const statement = companyNamed('any').toSQL().sql;
        return tx
          .select({ genericPlans: sql<number>`generic_plans::int`, customPlans: sql<number>`custom_plans::int` })
          .from(sql`pg_prepared_statements`)
          .where(sql`statement = ${statement}`);
      });

      expect(plans).toEqual([{ genericPlans: 3, customPlans: 0 }]);
    } finally {
      await database.drop();
    }
  });
});

describe('a connection the database ends while a request holds it', () => {
  // node-postgres reports it as an 'error' event on the connection; with nothing listening that
  // event ended the whole server (every request and live socket with it).
  it('fails the next statement of the request, rolls back its transaction, and the pool serves on', async ({ skip }) => {
    if (!(await isPostgresReachable())) skip();
    const database = await createTestDatabase('postgres');
    const pool = openPool({ connectionString: database.url, max: 2 });
    try {
      const held = await pool.connect();
      await held.query('begin');
      await held.query(`insert into companies (name, password_hash) values ('Lost Yard', 'x')`);
      const { rows } = await held.query<{ pid: number }>('select pg_backend_pid() as pid');
      const ended = new Promise((resolve) => held.once('end', resolve));
      await adminQuery(`select pg_terminate_backend(${rows[0]!.pid})`);
      await ended;

      await expect(held.query('select 1')).rejects.toThrow('not queryable');
      held.release(true);
      const after = await pool.query(`select count(*)::int as count from companies where name = 'Lost Yard'`);
      expect(after.rows).toEqual([{ count: 0 }]);
    } finally {
      await pool.end();
      await database.drop();
    }
  });
});
