import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrationsHash } from '../platform';

/**
 * Every test database starts migrated, copied from one template made once per run instead of
 * migrating each: PGlite from a data directory tarball, PostgreSQL with CREATE DATABASE …
 * TEMPLATE. Both are named by a hash of the migrations (and PGlite's version), so a changed
 * migration never meets a stale template (`migrationsHash`, shared with the build's template
 * for new embedded data directories).
 */

/** Where the migrated PGlite snapshot of these migrations lives (made by the tests' global setup). */
export function pgliteSnapshotPath(hash = migrationsHash()): string {
  return path.join(os.tmpdir(), 'siteboard-test-templates', `pglite-${hash}.tar`);
}

/** The snapshot, if the global setup has made it: else each database migrates on its own. */
export function existingPgliteSnapshot(): string | undefined {
  const file = pgliteSnapshotPath();
  return fs.existsSync(file) ? file : undefined;
}

/**
 * Puts the tests' migrated database, unpacked, in the data directory (when the snapshot is made):
 * a server's or openDatabase's first start on it skips initdb and the migrations, seconds that a
 * build's template (dist/embedded-template) saves `npm start` but a test run may not have.
 */
export function unpackPgliteSnapshot(dataDir: string): void {
  const snapshot = existingPgliteSnapshot();
  if (!snapshot) return;
  fs.mkdirSync(path.join(dataDir, 'pgdata'), { recursive: true });
  execFileSync('tar', ['-xf', snapshot, '-C', path.join(dataDir, 'pgdata')], { stdio: 'ignore' });
}
