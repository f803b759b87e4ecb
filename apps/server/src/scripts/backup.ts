import { ConfigError, loadConfig } from '../config';
import { backupEmbedded, DataDirLockedError, restoreEmbedded } from '../platform';
import { operatorFile } from './operator-command';
import { OperatorError } from './operator-password';

/**
 * `npm run backup -- <file>`: a backup of the embedded database (DATA_DIR) into one file, taken
 * from the running server when there is one (it goes on serving), else from the stopped data
 * directory. `npm run restore -- <file>`: unpacks one into DATA_DIR, which must be empty or
 * missing. PostgreSQL has its own tools (README, "Backups").
 */
const USAGE = {
  backup: 'Name the file to write: npm run backup -- <file>, e.g. npm run backup -- siteboard-2026-11-27.tar.gz',
  restore: 'Name the backup to restore: DATA_DIR=<an empty folder> npm run restore -- <file>',
};
const POSTGRES = {
  backup: 'DATABASE_URL is set: back up PostgreSQL with pg_dump (README, "Backups"); this command backs up the embedded database.',
  restore: 'DATABASE_URL is set: restore PostgreSQL with pg_restore (README, "Backups"); this command restores the embedded database.',
};

class UsageError extends Error {}

async function main(action: 'backup' | 'restore', argument: string | undefined) {
  const config = loadConfig();
  if (!argument) throw new UsageError(USAGE[action]);
  if (config.DATABASE_URL) throw new UsageError(POSTGRES[action]);
  const file = operatorFile(argument);
  if (action === 'backup') {
    const summary = await backupEmbedded(config.dataDir, file);
    const from = summary.taken === 'online' ? 'the running server' : 'the stopped data directory';
    console.log(`Backed up ${config.dataDir} from ${from} into ${file}: ${summary.files} files, ${(summary.bytes / 1024 / 1024).toFixed(1)} MB, in ${(summary.ms / 1000).toFixed(1)} s.`);
    console.log(`Restore it with: DATA_DIR=<an empty folder> npm run restore -- ${file}`);
    return;
  }
  const summary = await restoreEmbedded(config.dataDir, file);
  console.log(`Restored ${file} (taken ${summary.manifest.createdAt}, ${summary.manifest.taken}, up to migration ${summary.manifest.migration}) into ${config.dataDir}: ${summary.files} files.`);
  if (summary.warning) console.warn(summary.warning);
  console.log(`Start SiteBoard with DATA_DIR=${config.dataDir} and check that GET /api/ready/ answers 200.`);
}

const action = process.argv[2] === 'restore' ? 'restore' : 'backup';
main(action, process.argv[3]).catch((error) => {
  const known = error instanceof ConfigError || error instanceof UsageError || error instanceof OperatorError || error instanceof DataDirLockedError;
  console.error(known ? error.message : `The ${action} failed: ${(error as Error).message}`);
  process.exit(1);
});
