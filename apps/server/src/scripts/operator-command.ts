import { ConfigError, loadConfig, type Config } from '../config';
import { DataDirLockedError, openConfiguredDatabase, type Db, type DatabaseTimeouts } from '../platform';
import { OperatorError } from './operator-password';

/**
 * An operator's command (set-password, delete-company, export-company): `refusal` (how to call it)
 * printed when set, before anything is opened; else the configured database opened for `work` and
 * closed after it. What went wrong is one line (the command's own words for what the operator can
 * fix, `failure` and the cause for the rest) and exit code 1.
 */
export function runOperatorCommand(
  options: { failure: string; refusal?: string | false; timeouts?: DatabaseTimeouts },
  work: (db: Db, config: Config) => Promise<void>,
): void {
  const run = async () => {
    if (options.refusal) throw new OperatorError(options.refusal);
    const config = loadConfig();
    const database = await openConfiguredDatabase(config, undefined, options.timeouts);
    try {
      await work(database.db, config);
    } finally {
      await database.close();
    }
  };
  run().catch((error: unknown) => {
    const known = error instanceof ConfigError || error instanceof OperatorError || error instanceof DataDirLockedError;
    console.error(known ? (error as Error).message : `${options.failure}: ${(error as Error).message}`);
    process.exit(1);
  });
}
