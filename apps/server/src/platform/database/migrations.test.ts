import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from './client';

const serverRoot = path.resolve(migrationsFolder, '..');
const drizzleKit = path.resolve(serverRoot, '../../node_modules/.bin/drizzle-kit');
const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-migrations-'));

afterAll(() => fs.rmSync(copy, { recursive: true, force: true }));

/** drizzle-kit on a copy of the migrations, so that a failing check writes nothing into the repository (it takes paths relative to its working directory). */
function drizzleKitOn(command: 'check' | 'generate'): string {
  const args = [command, '--dialect', 'postgresql', '--out', path.relative(serverRoot, copy), ...(command === 'generate' ? ['--schema', './src/schema/*.ts'] : [])];
  return execFileSync(drizzleKit, args, { cwd: serverRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('the migrations folder', () => {
  it('is a single chain of snapshots that drizzle-kit can add the next migration to', () => {
    fs.cpSync(migrationsFolder, copy, { recursive: true });
    expect(drizzleKitOn('check')).toContain("Everything's fine");
    // The last snapshot matches the schema: `drizzle-kit generate` finds nothing to migrate.
    expect(drizzleKitOn('generate')).toContain('No schema changes');
    expect(fs.readdirSync(copy).filter((file) => file.endsWith('.sql')).sort()).toEqual(fs.readdirSync(migrationsFolder).filter((file) => file.endsWith('.sql')).sort());
  });
});
