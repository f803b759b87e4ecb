// Type checks every project, two at a time (CI has two cores): the same `tsc -p` runs as one after
// another, in about half the time. Prints each project's errors and fails if any project fails.
import { spawn } from 'node:child_process';
import os from 'node:os';

const projects = ['packages/shared', 'apps/server', 'apps/web', 'apps/web/tsconfig.test.json', 'e2e', 'bench'];
const parallel = Math.max(1, Math.min(2, os.availableParallelism()));

function check(project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ project, code, output }));
  });
}

const queue = [...projects];
let failed = 0;
await Promise.all(
  Array.from({ length: parallel }, async () => {
    for (let project = queue.shift(); project; project = queue.shift()) {
      const result = await check(project);
      process.stdout.write(`tsc -p ${result.project}: ${result.code === 0 ? 'ok' : 'failed'}\n${result.output}`);
      if (result.code !== 0) failed += 1;
    }
  }),
);
process.exit(failed > 0 ? 1 : 0);
