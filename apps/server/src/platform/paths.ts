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
