import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A filesystem of its own that a test fills to the last byte and frees again. */
export interface SmallDisk {
  dir: string;
  /** Writes a filler file until the disk has no room left, then gives back `leaveBytes` of it (none unless given). */
  fill(leaveBytes?: number): void;
  /** Removes the filler: the room is back. */
  free(): void;
  /** Unmounts the disk and removes its mount point. */
  close(): void;
}

/** The numeric user and group of a system account (`id`), or undefined when there is none. */
export function accountIds(account: string): { uid: number; gid: number } | undefined {
  try {
    return { uid: Number(execFileSync('id', ['-u', account], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', account], { encoding: 'utf8' })) };
  } catch {
    return undefined;
  }
}

/**
 * A tmpfs of `megabytes`, mounted for the test: a disk that really fills, as a full data disk
 * does, with the kernel's own ENOSPC. Only root may mount (CI runs as root); `owner` is the account
 * that writes into it (PostgreSQL's server for a tablespace).
 */
export function mountSmallDisk(megabytes: number, owner?: { uid: number; gid: number }): SmallDisk {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-small-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m,mode=0755`, 'tmpfs', dir]);
  if (owner) fs.chownSync(dir, owner.uid, owner.gid);
  const filler = path.join(dir, 'filler');
  return {
    dir,
    fill(leaveBytes = 0) {
      const chunk = Buffer.alloc(1024 * 1024);
      const fd = fs.openSync(filler, 'a');
      try {
        // Whole chunks until one no longer fits, then what is left byte by byte in smaller pieces.
        for (let size = chunk.length; size > 0; size = Math.floor(size / 4)) {
          for (;;) {
            try {
              fs.writeSync(fd, chunk, 0, size);
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
              throw error;
            }
          }
        }
        if (leaveBytes > 0) fs.ftruncateSync(fd, Math.max(0, fs.fstatSync(fd).size - leaveBytes));
      } finally {
        fs.closeSync(fd);
      }
    },
    free() {
      fs.rmSync(filler, { force: true });
    },
    close() {
      execFileSync('umount', ['--lazy', dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether this process can mount a disk to fill (root on Linux, with a kernel that lets it): tried once. */
export function canMountDisks(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  try {
    mountSmallDisk(1).close();
    return true;
  } catch {
    return false;
  }
}
