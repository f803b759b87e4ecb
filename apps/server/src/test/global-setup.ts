import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { TestProject } from 'vitest/node';
import { migrationsFolder, openDatabase } from '../platform';
import { adminQuery, isPostgresReachable, TEST_DATABASE_URL } from './build-app';
import { compiledForTests } from './compiled';
import { pgliteSnapshotPath } from './database-templates';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PostgreSQL database test databases are copied from (none: PostgreSQL unreachable). */
    postgresTemplate: string | null;
  }
}

/** Makes the migrated PGlite snapshot once per set of migrations; written whole or not at all. */
async function makePgliteSnapshot() {
  const file = pgliteSnapshotPath();
  if (fs.existsSync(file)) return;
  const pglite = await PGlite.create();
  try {
    await migrate(drizzle({ client: pglite }), { migrationsFolder });
    const tarball = await pglite.dumpDataDir('none');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, Buffer.from(await tarball.arrayBuffer()));
    fs.renameSync(partial, file);
  } finally {
    await pglite.close();
  }
}

/** A migrated PostgreSQL database of this run, dropped when the run ends. */
async function makePostgresTemplate(): Promise<string | null> {
  if (!(await isPostgresReachable())) return null;
  const name = `siteboard_template_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 1 });
  await database.close();
  return name;
}

const serverRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The embedded database's host compiled to JavaScript once per run, as the build compiles it for
 * `npm start`: a test database's thread then loads it as it is, instead of registering tsx and
 * transpiling the host in every thread (about half a second of CPU per database, ~100 databases a run).
 */
function compileEmbeddedHost(): Promise<string> {
  return compiledForTests(path.join(serverRoot, 'src/platform/database/embedded-host.ts'), 'embedded-host');
}

export default async function setup(project: TestProject) {
  const [, template, host, sheetsRender, photoProcess] = await Promise.all([
    makePgliteSnapshot(),
    project.name === 'node' ? makePostgresTemplate() : null,
    compileEmbeddedHost(),
    compiledForTests(path.join(serverRoot, 'src/features/sheets/sheets.render-process.ts'), 'sheets-render'),
    compiledForTests(path.join(serverRoot, 'src/lib/photo-process.ts'), 'photo-process'),
  ]);
  // The test processes start after the global setup and inherit its environment.
  process.env.SITEBOARD_EMBEDDED_HOST_FILE = host;
  // The same for the drawings' rendering process (features/sheets/sheets.render.ts).
  process.env.SITEBOARD_SHEETS_RENDER_FILE = sheetsRender;
  // And for the photos' process (lib/images.ts).
  process.env.SITEBOARD_PHOTO_PROCESS_FILE = photoProcess;
  project.provide('postgresTemplate', template);
  return async () => {
    if (template) await adminQuery(`drop database if exists ${template} with (force)`);
  };
}
