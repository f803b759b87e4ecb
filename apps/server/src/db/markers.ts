import { randomUUID } from 'node:crypto';
import type { Database } from './client';

/** How long a marker waits to come back before its sender gives up on hearing it. */
const MARKER_TIMEOUT_MS = 2_000;

/**
 * Markers on a channel this instance LISTENs on: a `sync:<token>` NOTIFY sent now comes back after
 * every announcement committed before it (they arrive in commit order), so once it is back this
 * instance has heard them all. Used by the caches that forget on the database's word (decision
 * records 017 and 039).
 */
export function createMarkers(database: Pick<Database, 'notify'>, channel: string, onTimeout: () => void) {
  const waiting = new Map<string, () => void>();
  return {
    /** For the channel's handler: true when the payload was a marker (and it has arrived). */
    arrived(payload: string): boolean {
      if (!payload.startsWith('sync:')) return false;
      waiting.get(payload.slice('sync:'.length))?.();
      return true;
    },
    /** Resolves when a marker sent now has come back, or, having called `onTimeout`, after 2 s or when it cannot be sent. */
    async echo(): Promise<void> {
      const token = randomUUID();
      let timer: NodeJS.Timeout | undefined;
      const echoed = new Promise<void>((resolve) => {
        waiting.set(token, resolve);
        timer = setTimeout(() => {
          onTimeout();
          resolve();
        }, MARKER_TIMEOUT_MS);
      });
      try {
        try {
          await database.notify(channel, `sync:${token}`);
        } catch {
          // Not sent (the listening connection is down and cannot be opened): nothing can be heard.
          onTimeout();
          return;
        }
        await echoed;
      } finally {
        clearTimeout(timer);
        waiting.delete(token);
      }
    },
  };
}
