import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {}

/**
 * PGlite is one process per data directory: a second process would corrupt it. The lock file
 * holds the owner's pid, so a lock left by a killed process is recognised and taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'siteboard.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(fs.readFileSync(lockPath, 'utf8'));
      // A lock naming this very process is stale: in a container every start is pid 1, so a killed server's lock names its successor.
      if (owner !== process.pid && isRunning(owner)) {
        throw new DataDirLockedError(
          `The data directory ${dataDir} is in use by another SiteBoard process (pid ${owner}). Stop it first, or set DATA_DIR to another folder.`,
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dataDir}.`);
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
