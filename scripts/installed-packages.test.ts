import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript module of `npm start`, without types of its own.
import { packagesOutOfStep } from './installed-packages.mjs';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

/** A checkout whose lock file asks for `wanted` and whose node_modules holds `installed` (npm's own record), or no record at all. */
function checkout(wanted: Record<string, object>, installed?: Record<string, object>) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-install-'));
  roots.push(root);
  fs.writeFileSync(path.join(root, 'package-lock.json'), JSON.stringify({ packages: { '': { name: 'siteboard' }, ...wanted } }));
  if (installed) {
    fs.mkdirSync(path.join(root, 'node_modules'));
    fs.writeFileSync(path.join(root, 'node_modules/.package-lock.json'), JSON.stringify({ packages: installed }));
  }
  return root;
}

describe('npm start after an update', () => {
  const lock = {
    'node_modules/openseadragon': { version: '5.0.1' },
    'node_modules/vite': { version: '7.1.0', dev: true },
    'node_modules/@esbuild/darwin-arm64': { version: '0.25.0', optional: true },
    'node_modules/@siteboard/web': { resolved: 'apps/web', link: true },
    'apps/web/node_modules/zod': { version: '4.1.0' },
  };

  it('names the packages the lock file asks for that are missing or at another version', () => {
    const root = checkout(lock, { 'node_modules/vite': { version: '7.0.0' }, 'apps/web/node_modules/zod': { version: '4.1.0' } });
    expect(packagesOutOfStep(root)).toEqual(['openseadragon@5.0.1', 'vite@7.1.0']);
  });

  it('finds nothing out of step in an install of the lock file, another platform’s optional builds aside', () => {
    const installed = { 'node_modules/openseadragon': { version: '5.0.1' }, 'node_modules/vite': { version: '7.1.0' }, 'apps/web/node_modules/zod': { version: '4.1.0' } };
    expect(packagesOutOfStep(checkout(lock, installed))).toEqual([]);
    // No record of npm's: another package manager installed it, and it is not second-guessed.
    expect(packagesOutOfStep(checkout(lock))).toEqual([]);
  });
});
