import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../..', import.meta.url));

/** An operator's command as the README shows it: what it printed and its exit code. */
function npmRun(args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile('npm', ['run', '--silent', ...args], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: '', ...env } }, (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }));
  });
}

describe('operator commands name a file in a folder that does not exist', { timeout: 240_000 }, () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-operator-file-'));
  const dataDir = path.join(root, 'data');
  const missing = path.join(root, 'no-such-folder');
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('backup, restore and export-company refuse it in one clear line, before opening anything', async () => {
    const env = { DATA_DIR: dataDir };
    const [backup, restore, exported] = await Promise.all([
      npmRun(['backup', '--', path.join(missing, 'b.tar.gz')], env),
      npmRun(['restore', '--', path.join(missing, 'b.tar.gz')], env),
      npmRun(['export-company', '--', 'SiteBoard Demo', path.join(missing, 'c.zip')], env),
    ]);

    for (const result of [backup, restore, exported]) {
      expect(result.stderr.trim()).toBe(`The folder ${missing} does not exist; create it first.`);
      expect(result.code).toBe(1);
    }
    // Refused before any database was opened or folder made.
    expect(fs.readdirSync(root)).toEqual([]);
  });
});
