/** How the benches write their current result (bench/results/<name>.md; git keeps the history). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './server';

/** The machine and its load over the run: the line every result carries to be read against. */
export const machineLine = (loadAtStart: number) =>
  `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; 1-minute load average ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end (other agents share the cores).`;

/** Writes `bench/results/<file>` and prints it. */
export function writeResult(file: string, markdown: string) {
  const target = path.join(repoRoot, 'bench/results', file);
  fs.writeFileSync(target, `${markdown}\n`);
  console.log(`\n${markdown}\n\nWrote ${path.relative(repoRoot, target)}`);
}
