import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {}

/** What the lock file holds: the owner's pid and when that process started, so a reused pid is told apart. */
interface LockOwner {
  pid: number;
  /** The process's start time (Linux: clock ticks since boot, from /proc); null where unknown. */
  started: string | null;
}

/**
 * PGlite is one process per data directory: a second process would corrupt it. The lock file
 * names its owner (pid and start time), so a lock left by a killed process is recognised and
 * taken over, even when its pid now belongs to another process.
 */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'siteboard.lock');
  const self: LockOwner = { pid: process.pid, started: processStartTime(process.pid) };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, JSON.stringify(self), { flag: 'wx' });
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(lockPath);
      // A lock naming this very process is stale: in a container every start is pid 1, so a killed server's lock names its successor.
      if (owner && owner.pid !== process.pid && isRunning(owner)) {
        throw new DataDirLockedError(
          `The data directory ${dataDir} is in use by another SiteBoard process (pid ${owner.pid}). Stop it first, or set DATA_DIR to another folder.`,
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dataDir}.`);
}

/** The lock's owner; a bare pid is an older server's lock. Unreadable content is no owner. */
function readOwner(lockPath: string): LockOwner | undefined {
  const text = fs.readFileSync(lockPath, 'utf8').trim();
  if (/^\d+$/.test(text)) return { pid: Number(text), started: null };
  try {
    const parsed = JSON.parse(text) as Partial<LockOwner>;
    return typeof parsed.pid === 'number' ? { pid: parsed.pid, started: typeof parsed.started === 'string' ? parsed.started : null } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the lock's owner still runs: its pid is alive and, where known, started when the lock says. */
function isRunning(owner: LockOwner): boolean {
  if (!Number.isInteger(owner.pid) || owner.pid <= 0) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (owner.started === null) return true;
  const started = processStartTime(owner.pid);
  return started === null || started === owner.started;
}

/** Field 22 of /proc/<pid>/stat: when the process started. The command name (field 2) may hold spaces, so count after its ')'. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}
