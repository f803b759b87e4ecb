import path from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { backupEmbedded } from '../platform';

/**
 * `npm run backup -- <file>`: a backup of the embedded database (DATA_DIR) into one file, taken
 * from the running server when there is one (it goes on serving), else from the stopped data
 * directory. PostgreSQL has its own tools (README, "Backups").
 */
async function main() {
  const config = loadConfig();
  const target = process.argv[2];
  if (!target) throw new UsageError('Name the file to write: npm run backup -- <file>, e.g. npm run backup -- siteboard-2026-11-27.tar.gz');
  if (config.DATABASE_URL) throw new UsageError('DATABASE_URL is set: back up PostgreSQL with pg_dump (README, "Backups"); this command backs up the embedded database.');
  // A relative file is relative to where the command was typed (npm runs the script inside the server's folder).
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), target);
  const summary = await backupEmbedded(config.dataDir, file);
  const from = summary.taken === 'online' ? 'the running server' : 'the stopped data directory';
  console.log(`Backed up ${config.dataDir} from ${from} into ${file}: ${summary.files} files, ${(summary.bytes / 1024 / 1024).toFixed(1)} MB, in ${(summary.ms / 1000).toFixed(1)} s.`);
  console.log(`Restore it with: DATA_DIR=<an empty folder> npm run restore -- ${file}`);
}

class UsageError extends Error {}

main().catch((error) => {
  console.error(error instanceof ConfigError || error instanceof UsageError ? error.message : `The backup failed: ${(error as Error).message}`);
  process.exit(1);
});
