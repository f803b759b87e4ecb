import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * apps/server: the nearest folder above this module holding the server's package.json, whether it
 * runs as TypeScript (src/platform/paths.ts) or compiled into a bundle (dist/server.js), so files
 * beside the code are found both ways. (The module's URL is read as a string: under jsdom, `URL`
 * is not Node's own.)
 */
export const serverRoot = findServerRoot(path.dirname(fileURLToPath(import.meta.url)));

function findServerRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'drizzle'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`The server's folder (with package.json and drizzle/) was not found above ${from}`);
  }
}

/**
 * The file a thread or process of the server's own runs (the embedded database's host, the
 * drawings' and the photos' processes): beside the calling module as TypeScript, run through tsx
 * (`npm run dev`), or compiled beside the server (`dist/<compiled>.js`). The tests compile each
 * entry once per run and name it in an environment variable (test/global-setup.ts), so a thread or
 * process loads plain JavaScript instead of registering tsx and transpiling it again.
 */
export function entryFile(moduleUrl: string, entry: { source: string; compiled: string; env: string }): { file: string; execArgv: string[] } {
  const compiled = process.env[entry.env];
  if (compiled) return { file: compiled, execArgv: [] };
  const here = fileURLToPath(moduleUrl);
  const typescript = here.endsWith('.ts');
  return { file: path.join(path.dirname(here), typescript ? entry.source : `${entry.compiled}.js`), execArgv: typescript ? ['--import', 'tsx'] : [] };
}
