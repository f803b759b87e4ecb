// Restores package-lock entries for other platforms' native bindings of unrs-resolver.
//
// The registry this project installs from serves only the bindings for the machine it runs on, so
// `npm install` here drops the other platforms' entries from package-lock.json, and `npm ci` then
// refuses the lock as out of sync ("Missing: @unrs/resolver-binding-… from lock file"). The entries
// only need name, version, os, cpu and libc: npm ci skips a binding whose platform does not match
// without fetching it. Run `node scripts/complete-lock.mjs` after changing dependencies.
import { readFileSync, writeFileSync } from 'node:fs';

const lockPath = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const parent = lock.packages['node_modules/unrs-resolver'];
const prefix = '@unrs/resolver-binding-';
const libcOf = { gnu: 'glibc', gnueabihf: 'glibc', musl: 'musl', musleabihf: 'musl' };
const cpuOf = { 'arm-eabi': 'arm' };

let added = 0;
for (const [name, version] of Object.entries(parent?.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  if (lock.packages[key] || !name.startsWith(prefix)) continue;
  const [os, cpuPart, variant] = name.slice(prefix.length).split('-');
  const cpu = cpuOf[`${cpuPart}-${variant}`] ?? cpuPart;
  const entry = { version, cpu: [cpu], dev: true, license: 'MIT', optional: true, os: [os] };
  if (libcOf[variant]) entry.libc = [libcOf[variant]];
  lock.packages[key] = entry;
  added += 1;
}

const sorted = {};
for (const key of Object.keys(lock.packages).sort((a, b) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b, 'en')))) {
  sorted[key] = lock.packages[key];
}
lock.packages = sorted;
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform binding entries restored`);
