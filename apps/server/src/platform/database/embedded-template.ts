import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { serverRoot } from '../paths';

/** The migrations every database is brought to (PostgreSQL's and PGlite's alike). */
export const migrationsFolder = path.join(serverRoot, 'drizzle');

/** Where the build keeps the migrated data directory a new embedded database is copied from. */
export const embeddedTemplatesRoot = path.join(serverRoot, 'dist', 'embedded-template');

/**
 * Names a migrated PGlite data directory: PGlite's version (its files decide what a data
 * directory can be opened by) and the migrations. A changed migration or PGlite never meets a
 * stale template: it is looked for under another name.
 */
export function migrationsHash(): string {
  const hash = createHash('sha256');
  const pgliteEntry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const pglitePackage = path.join(pgliteEntry.slice(0, pgliteEntry.lastIndexOf(`${path.sep}dist${path.sep}`)), 'package.json');
  hash.update((JSON.parse(fs.readFileSync(pglitePackage, 'utf8')) as { version: string }).version);
  for (const file of fs.readdirSync(migrationsFolder, { recursive: true, encoding: 'utf8' }).sort()) {
    const full = path.join(migrationsFolder, file);
    if (fs.statSync(full).isFile()) hash.update(file).update(fs.readFileSync(full));
  }
  return hash.digest('hex').slice(0, 16);
}

/** The build's template for the current PGlite and migrations, if there is one. */
export function embeddedTemplateDir(root = embeddedTemplatesRoot): string | undefined {
  const dir = path.join(root, migrationsHash());
  return fs.existsSync(path.join(dir, 'PG_VERSION')) ? dir : undefined;
}

/**
 * Creates `<dataDir>/pgdata` as a copy of the build's migrated template (decision record 016):
 * a few file copies instead of initdb and every migration, which take seconds and leave hundreds
 * of megabytes in a WebAssembly memory. The copy is made beside and renamed into place, so an
 * interrupted one never looks like a database. Answers false, leaving everything as it was,
 * when there is no template for this PGlite and these migrations, or `pgdata` is there already.
 */
export function copyEmbeddedTemplate(dataDir: string, root = embeddedTemplatesRoot): boolean {
  const template = embeddedTemplateDir(root);
  const target = path.join(dataDir, 'pgdata');
  if (!template || fs.existsSync(target)) return false;
  const partial = path.join(dataDir, `pgdata.${process.pid}.partial`);
  fs.rmSync(partial, { recursive: true, force: true });
  try {
    fs.cpSync(template, partial, { recursive: true });
    fs.renameSync(partial, target);
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw error;
  }
  return true;
}
