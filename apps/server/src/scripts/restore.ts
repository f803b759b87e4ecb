import path from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { DataDirLockedError, restoreEmbedded } from '../platform';

/**
 * `npm run restore -- <file>`: unpacks a backup made by `npm run backup` into DATA_DIR, which must
 * be empty or missing. Start SiteBoard on it afterwards and check GET /api/ready/.
 */
async function main() {
  const config = loadConfig();
  const source = process.argv[2];
  if (!source) throw new UsageError('Name the backup to restore: DATA_DIR=<an empty folder> npm run restore -- <file>');
  if (config.DATABASE_URL) throw new UsageError('DATABASE_URL is set: restore PostgreSQL with pg_restore (README, "Backups"); this command restores the embedded database.');
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), source);
  const summary = await restoreEmbedded(config.dataDir, file);
  console.log(`Restored ${file} (taken ${summary.manifest.createdAt}, ${summary.manifest.taken}, up to migration ${summary.manifest.migration}) into ${config.dataDir}: ${summary.files} files.`);
  if (summary.warning) console.warn(summary.warning);
  console.log(`Start SiteBoard with DATA_DIR=${config.dataDir} and check that GET /api/ready/ answers 200.`);
}

class UsageError extends Error {}

main().catch((error) => {
  const known = error instanceof ConfigError || error instanceof UsageError || error instanceof DataDirLockedError;
  console.error(known ? error.message : `The restore failed: ${(error as Error).message}`);
  process.exit(1);
});
