// Compiles the server for `npm start`: plain JavaScript, so production runs no TypeScript loader.
// Packages stay external (installed beside it) except the workspace's own TypeScript ones.
// Then it makes the migrated data directory a new embedded database is copied from (dist/embedded-template).
import fs from 'node:fs';
import * as esbuild from 'esbuild';

const { dependencies } = JSON.parse(fs.readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(dependencies).filter((name) => !name.startsWith('@siteboard/'));

await esbuild.build({
  // The embedded database's host runs on its own thread, the drawings' rendering and the photos'
  // decoding in processes of their own, each from its own file beside the server.
  entryPoints: { server: 'src/server.ts', 'sheets-render': 'src/features/sheets/sheets.render-process.ts', 'photo-process': 'src/lib/photo-process.ts', 'embedded-host': 'src/platform/database/embedded-host.ts', 'make-embedded-template': 'src/platform/database/make-embedded-template.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: external.flatMap((name) => [name, `${name}/*`]),
  logLevel: 'warning',
});

await import('./dist/make-embedded-template.js');
