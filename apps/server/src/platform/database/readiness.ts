import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from './client';
import { migrationsFolder } from './embedded-template';
import { DATABASE_CHECK_MS, withinTime } from './timeouts';

export interface Readiness {
  database: 'ok' | 'unreachable';
  /** Whether the database has every migration this build knows (`unknown` when it does not answer). */
  migrations: 'applied' | 'pending' | 'unknown';
  /** Whether this instance hears the change feed: without it, pushes and identity changes from others are missed. */
  changes: 'listening' | 'disconnected';
}

let lastMigrationAt: number | undefined;

/** When the build's newest migration was made: drizzle records it as the applied migration's `created_at`. */
function newestMigration(): number {
  if (lastMigrationAt === undefined) {
    const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
    lastMigrationAt = Math.max(...journal.entries.map((entry) => entry.when));
  }
  return lastMigrationAt;
}

/** One statement answers both whether the database is there and how far it is migrated. */
export async function databaseReadiness(database: Database): Promise<Readiness> {
  const changes = database.changes.listening ? 'listening' : 'disconnected';
  try {
    // A database gone quiet is unreachable too: a probe that hangs tells a load balancer nothing.
    const result = await withinTime(database.db.execute(sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`), DATABASE_CHECK_MS);
    const last = (result as unknown as { rows: { last: string | null }[] }).rows[0]?.last;
    return { database: 'ok', migrations: last !== null && last !== undefined && Number(last) >= newestMigration() ? 'applied' : 'pending', changes };
  } catch {
    return { database: 'unreachable', migrations: 'unknown', changes };
  }
}
