// `npm start`: builds what is missing or older than its sources, then runs the compiled server.
// On an existing, current build it goes straight to the server (no bundler, no TypeScript loader).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packagesOutOfStep } from './installed-packages.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outputs = ['apps/server/dist/server.js', 'apps/server/dist/embedded-host.js', 'apps/web/dist/index.html'];
const sources = ['package-lock.json', 'packages/shared/src', 'apps/server/src', 'apps/server/build.mjs', 'apps/server/drizzle', 'apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts'];

function newestChange(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(entry).reduce((newest, name) => Math.max(newest, newestChange(path.join(entry, name))), stat.mtimeMs);
}

const built = Math.min(...outputs.map((file) => fs.statSync(path.join(root, file), { throwIfNoEntry: false })?.mtimeMs ?? 0));
if (sources.some((source) => newestChange(path.join(root, source)) > built)) {
  const missing = packagesOutOfStep(root);
  if (missing.length > 0) {
    console.error(
      `SiteBoard could not start: the installed packages are not the ones package-lock.json asks for (${missing.length}, e.g. ${missing.slice(0, 3).join(', ')}).\n` +
        'After an update, run `npm ci` (or `npm install`) first, then `npm start` again.',
    );
    process.exit(1);
  }
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import(pathToFileURL(path.join(root, 'apps/server/dist/server.js')).href);
