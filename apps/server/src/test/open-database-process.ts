/**
 * One instance's start against DATABASE_URL, as a process of its own: it says `waiting`, opens the
 * database (migrating it) when it reads `go` on its standard input, closes it and exits 0, or
 * prints the error and exits 1. Several of these started together are instances starting at once.
 */
import readline from 'node:readline';
import { openDatabase } from '../platform';

const input = readline.createInterface({ input: process.stdin });
console.log('waiting');
for await (const line of input) {
  if (line !== 'go') continue;
  try {
    const database = await openDatabase({ kind: 'postgres', url: process.env.DATABASE_URL!, poolSize: 1 });
    await database.close();
    console.log('opened');
    process.exit(0);
  } catch (error) {
    console.error(error);
    process.exit(1);
  }
}
