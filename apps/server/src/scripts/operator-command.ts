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
  options: { failure: string; refusal?: string | false; timeouts?: DatabaseTimeouts; readsOnly?: boolean },
  work: (db: Db, config: Config) => Promise<void>,
): void {
  const run = async () => {
    if (options.refusal) throw new OperatorError(options.refusal);
    let config = loadConfig();
    let database: Database;
    let snapshot: { dataDir: string; remove(): void } | undefined;
    try {
      database = await openConfiguredDatabase(config, undefined, options.timeouts);
    } catch (error) {
      if (!(options.readsOnly && error instanceof DataDirLockedError)) throw error;
      console.log('The server is running: reading a copy of its database taken now (it goes on serving).');
      snapshot = await snapshotOfRunningServer(config.dataDir);
      // Stopped by the operator (Ctrl-C) or the system: the copy goes too (else the server's next start removes it).
      const copy = snapshot;
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        process.once(signal, () => {
          copy.remove();
          process.exit(signal === 'SIGINT' ? 130 : 143);
        });
      }
      try {
        config = { ...config, dataDir: snapshot.dataDir };
        database = await openConfiguredDatabase(config, undefined, options.timeouts);
      } catch (opening) {
        snapshot.remove();
        throw opening;
      }
    }
    try {
      await work(database.db, config);
    } finally {
      await database.close();
      snapshot?.remove();
    }
  };
  run().catch((error: unknown) => {
    const known = error instanceof ConfigError || error instanceof OperatorError || error instanceof DataDirLockedError;
    console.error(known ? (error as Error).message : `${options.failure}: ${(error as Error).message}`);
    process.exit(1);
  });
}
