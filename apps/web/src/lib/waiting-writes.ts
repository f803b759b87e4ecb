import { useSyncExternalStore } from 'react';

/**
 * The paths of the writes made on this device that wait to be sent (the offline queue publishes
 * them; features/offline owns the queue), so any screen can mark what they change as "waiting to
 * sync" without importing the offline feature.
 */
let paths: readonly string[] = [];
const listeners = new Set<() => void>();

export function publishWaitingWrites(next: readonly string[]) {
  paths = next;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** The paths of the writes waiting now (for useSyncExternalStore; the same array until it changes). */
export function useWaitingWritePaths(): readonly string[] {
  return useSyncExternalStore(subscribe, () => paths);
}
