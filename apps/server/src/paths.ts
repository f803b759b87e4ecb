import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * apps/server: one level up from this file, whether it runs as TypeScript (src/paths.ts) or
 * compiled into a bundle (dist/server.js), so files beside the code are found both ways.
 * (The module's URL is read as a string: under jsdom, `URL` is not Node's own.)
 */
export const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
