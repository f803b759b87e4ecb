import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { migrationsFolder } from '../db/client';

/**
 * Every test database starts migrated, copied from one template made once per run instead of
 * migrating each: PGlite from a data directory tarball, PostgreSQL with CREATE DATABASE …
 * TEMPLATE. Both are named by a hash of the migrations (and PGlite's version), so a changed
 * migration never meets a stale template.
 */
export function migrationsHash(): string {
  const hash = createHash('sha256');
  // PGlite's own files (its version) decide what a snapshot can be loaded into.
  const pgliteEntry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const pglitePackage = path.join(pgliteEntry.slice(0, pgliteEntry.lastIndexOf(`${path.sep}dist${path.sep}`)), 'package.json');
  hash.update((JSON.parse(fs.readFileSync(pglitePackage, 'utf8')) as { version: string }).version);
  for (const file of fs.readdirSync(migrationsFolder, { recursive: true, encoding: 'utf8' }).sort()) {
    const full = path.join(migrationsFolder, file);
    if (fs.statSync(full).isFile()) hash.update(file).update(fs.readFileSync(full));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Where the migrated PGlite snapshot of these migrations lives (made by the tests' global setup). */
export function pgliteSnapshotPath(hash = migrationsHash()): string {
  return path.join(os.tmpdir(), 'siteboard-test-templates', `pglite-${hash}.tar`);
}

/** The snapshot, if the global setup has made it: else each database migrates on its own. */
export function existingPgliteSnapshot(): string | undefined {
  const file = pgliteSnapshotPath();
  return fs.existsSync(file) ? file : undefined;
}
