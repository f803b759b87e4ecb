/**
 * Run by the build (build.mjs): makes `dist/embedded-template/<hash>/`, the migrated data directory
 * a new embedded database is copied from (decision record 016), unless it is there already.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { embeddedTemplateDir, embeddedTemplatesRoot, migrationsFolder, migrationsHash } from './embedded-template';

const hash = migrationsHash();
if (!embeddedTemplateDir()) {
  fs.mkdirSync(embeddedTemplatesRoot, { recursive: true });
  const partial = path.join(embeddedTemplatesRoot, `${hash}.${process.pid}.partial`);
  const pglite = await PGlite.create(partial);
  try {
    await migrate(drizzle({ client: pglite }), { migrationsFolder });
    // Nothing left to replay when a copy first starts.
    await pglite.exec('CHECKPOINT');
  } finally {
    await pglite.close();
  }
  try {
    fs.renameSync(partial, path.join(embeddedTemplatesRoot, hash));
  } catch (error) {
    // Another build made the same template meanwhile: keep that one.
    fs.rmSync(partial, { recursive: true, force: true });
    if (!embeddedTemplateDir()) throw error;
  }
}
// Templates of other migrations or PGlite versions are of no use any more (a build under way keeps its `.partial`).
for (const name of fs.readdirSync(embeddedTemplatesRoot)) {
  if (/^[0-9a-f]{16}$/.test(name) && name !== hash) fs.rmSync(path.join(embeddedTemplatesRoot, name), { recursive: true, force: true });
}
