import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from '../config';
import { DataDirLockedError, openConfiguredDatabase, snapshotOfRunningServer, type Database, type Db, type DatabaseTimeouts } from '../platform';
import { OperatorError } from './operator-password';

/**
 * An operator's command (set-password, delete-company, export-company): `refusal` (how to call it)
 * printed when set, before anything is opened; else the configured database opened for `work` and
 * closed after it. What went wrong is one line (the command's own words for what the operator can
 * fix, `failure` and the cause for the rest) and exit code 1. A command that only reads
 * (`readsOnly`) runs on the embedded database while its server runs too: on a copy the server
 * gives of it now (a backup restored beside it, removed after), as consistent as a backup.
 */
export function runOperatorCommand(
  options: { failure: string; refusal?: string | false; writes?: string; timeouts?: DatabaseTimeouts; readsOnly?: boolean },
  work: (db: Db, config: Config) => Promise<void>,
): void {
  const run = async () => {
    if (options.refusal) throw new OperatorError(options.refusal);
    if (options.writes) operatorFile(options.writes);
    const opened = await openFor(loadConfig(), options);
    try {
      await work(opened.database.db, opened.config);
    } finally {
      await opened.database.close();
      opened.removeCopy?.();
    }
  };
  run().catch((error: unknown) => {
    const known = error instanceof ConfigError || error instanceof OperatorError || error instanceof DataDirLockedError;
    console.error(known ? (error as Error).message : `${options.failure}: ${(error as Error).message}`);
    process.exit(1);
  });
}

/**
 * The configured database; for a command that only reads, a copy of it that the running embedded
 * server gives when the data directory is in use (`removeCopy` deletes it, as does Ctrl-C).
 */
async function openFor(config: Config, options: { timeouts?: DatabaseTimeouts; readsOnly?: boolean }): Promise<{ config: Config; database: Database; removeCopy?: () => void }> {
  try {
    return { config, database: await openConfiguredDatabase(config, undefined, options.timeouts) };
  } catch (error) {
    if (!(options.readsOnly && error instanceof DataDirLockedError)) throw error;
  }
  console.log('The server is running: reading a copy of its database taken now (it goes on serving).');
  const copy = await snapshotOfRunningServer(config.dataDir);
  // Stopped by the operator (Ctrl-C) or the system: the copy goes too (else the server's next start removes it).
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      copy.remove();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }
  const copied = { ...config, dataDir: copy.dataDir };
  try {
    return { config: copied, database: await openConfiguredDatabase(copied, undefined, options.timeouts), removeCopy: copy.remove };
  } catch (error) {
    copy.remove();
    throw error;
  }
}

/**
 * A file an operator named (a backup, a restore's archive, an export): its absolute path, relative
 * to where the command was typed (npm runs the script inside the server's folder). Its folder
 * must exist: a typo in it is refused in the operator's words, never made into new folders.
 */
export function operatorFile(argument: string): string {
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), argument);
  const folder = path.dirname(file);
  const stat = fs.statSync(folder, { throwIfNoEntry: false });
  if (!stat) throw new OperatorError(`The folder ${folder} does not exist; create it first.`);
  if (!stat.isDirectory()) throw new OperatorError(`${folder} is not a folder.`);
  return file;
}
