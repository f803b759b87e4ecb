import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const serverRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A TypeScript entry of the server compiled to one JavaScript file, as the build compiles the
 * server for `npm start` (its packages left external), for the tests to run in a thread or a
 * process of its own without registering tsx and transpiling it there (about half a second of CPU
 * each time). Named by its content, so parallel runs and both projects share one file without a race.
 */
export async function compiledForTests(entry: string, name: string): Promise<string> {
  const { dependencies } = JSON.parse(fs.readFileSync(path.join(serverRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const external = Object.keys(dependencies).filter((dependency) => !dependency.startsWith('@siteboard/'));
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: external.flatMap((dependency) => [dependency, `${dependency}/*`]),
    write: false,
    logLevel: 'warning',
  });
  const code = result.outputFiles[0]!.contents;
  // Beside the server's packages, so that its imports resolve as the built server's do.
  const dir = path.join(serverRoot, 'node_modules', '.cache', 'siteboard-tests');
  const file = path.join(dir, `${name}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, code);
    fs.renameSync(partial, file);
  }
  return file;
}
