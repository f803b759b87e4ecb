import { useSyncExternalStore } from 'react';
import type { QueuedWrite } from './api-client';

/** A write made on this device that waits to be sent, or that the server refused (`detail` says why). */
export interface WaitingWrite extends Pick<QueuedWrite, 'method' | 'path' | 'json' | 'subject'> {
  id: number;
  status: 'waiting' | 'failed';
  detail?: string;
  /** The photo an upload sends (its form's file), to show it while it waits. */
  photo?: Blob;
}

/**
 * The writes made on this device that wait to be sent (the offline queue publishes them;
 * features/offline owns the queue), so any screen can show what they change as it will be and
 * mark it "waiting to sync" without importing the offline feature.
 */
let writes: readonly WaitingWrite[] = [];
const listeners = new Set<() => void>();

export function publishWaitingWrites(next: readonly WaitingWrite[]) {
  writes = next;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** The writes waiting now, oldest first (for useSyncExternalStore; the same array until it changes). */
export function useWaitingWrites(): readonly WaitingWrite[] {
  return useSyncExternalStore(subscribe, () => writes);
}
