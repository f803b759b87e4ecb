import { useSyncExternalStore } from 'react';
import type { QueuedWrite } from './api-client';

/** A write made on this device that waits to be sent, or that the server refused (`detail` says why). */
export interface WaitingWrite extends Pick<QueuedWrite, 'kind' | 'method' | 'path' | 'json' | 'subject'> {
  id: number;
  status: 'waiting' | 'failed';
  detail?: string;
  /** The status of the refusal (409: what it was for changed meanwhile). */
  refusedWith?: number;
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
/** Writes the person discarded from the queue, as they last stood: gone, but not sent. */
const discarded = new Map<number, WaitingWrite>();
/** Writes the server took (answered with success), by id: gone from the queue because they went. */
const sent = new Set<number>();

/**
 * The writes waiting now; `discardedIds` names those of the previous ones that the person discarded
 * (not sent), `sentIds` those the server took.
 */
export function publishWaitingWrites(next: readonly WaitingWrite[], discardedIds: readonly number[] = [], sentIds: readonly number[] = []) {
  // Its photo is let go: only what became of it is kept.
  for (const write of writes) if (discardedIds.includes(write.id)) discarded.set(write.id, { ...write, photo: undefined });
  for (const id of sentIds) sent.add(id);
  writes = next;
  for (const listener of listeners) listener();
}

/**
 * What a write changes, as the queue keeps their order: one subtask (its status, pin, comments and
 * photos), one day's log of a project (its sections, entries and photos), else the path itself.
 */
export function thingOf(path: string): string {
  return /^\/api\/(subtasks\/\d+|projects\/\d+\/daily-logs\/[^/]+)\//.exec(path)?.[1] ?? path;
}

/**
 * Whether a write waits for one the server refused, made before it to the same thing (thingOf):
 * it may depend on it (a comment on the task sent for approval), so it goes once that one is
 * retried or discarded. A change to another task or log goes on its own.
 */
export function heldBehindRefusal(writes: readonly Pick<WaitingWrite, 'id' | 'path' | 'status'>[], write: Pick<WaitingWrite, 'id' | 'path'>): boolean {
  const thing = thingOf(write.path);
  return writes.some((each) => each.status === 'failed' && each.id < write.id && thingOf(each.path) === thing);
}

/** The writes waiting at this moment (outside React: right after a write was queued). */
export const waitingWritesNow = (): readonly WaitingWrite[] => writes;

/** A write the person discarded, as it stood then (a message about it says what became of it). */
export const discardedWrite = (id: number): WaitingWrite | undefined => discarded.get(id);

/**
 * Whether the server took this write (it left the queue because it went: not discarded, not
 * refused). Known to the tab that sent it; a write another tab sent is not known here.
 */
export const wasSent = (id: number): boolean => sent.has(id);

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** The writes waiting now, oldest first (for useSyncExternalStore; the same array until it changes). */
export function useWaitingWrites(): readonly WaitingWrite[] {
  return useSyncExternalStore(subscribe, () => writes);
}
