import { onlineManager } from '@tanstack/react-query';
import { createStore, delMany, entries, set, type UseStore } from 'idb-keyval';
import { IDEMPOTENCY_KEY_IN_PROGRESS_CODE } from '@siteboard/shared';
import { api, ApiError, bodyOfQueuedWrite, newIdempotencyKey, setOfflineWriter, type QueuedWrite } from '../../lib/api-client';
import { heldBehindRefusal, publishWaitingWrites } from '../../lib/waiting-writes';

/** One write made without a signal, kept in IndexedDB until the server has answered it. */
export interface QueuedEntry extends QueuedWrite {
  /** Its place in the queue: the time it was made, in microseconds, unique. */
  id: number;
  userId: number;
  createdAt: string;
  status: 'waiting' | 'failed';
  /** The server's reason, when it refused the write. */
  detail?: string;
  /** The status of that refusal (409: what it was for changed meanwhile, a day's log signed). */
  refusedWith?: number;
}

let store: UseStore | undefined;
const db = () => (store ??= createStore('siteboard-offline', 'writes'));

let userId: number | null = null;
let snapshot: QueuedEntry[] = [];
const listeners = new Set<() => void>();
let lastId = 0;
let flushing: Promise<void> | null = null;
let onSynced: () => void = () => {};

/**
 * The queue is one per device, its tabs share it (IndexedDB): each tab tells the others when it
 * changed it, and they read it again. A write queued in a tab then closed went only when another
 * tab was reloaded, by which time the day's log it was for could be signed.
 */
const CHANNEL = 'siteboard-offline-writes';
let channel: BroadcastChannel | null = null;
const announce = () => channel?.postMessage({ userId });

/** Every change to the device's queue goes through these two, and the other tabs hear of each. */
async function keep(entry: QueuedEntry) {
  await set(entry.id, entry, db());
  announce();
}
async function forget(ids: readonly number[]) {
  await delMany([...ids], db());
  announce();
}

function publish(next: QueuedEntry[], discardedIds: readonly number[] = [], sentIds: readonly number[] = []) {
  snapshot = next;
  publishWaitingWrites(
    next.map(({ id, kind, method, path, json, form, subject, status, detail, refusedWith }) => ({
      id,
      kind,
      method,
      path,
      json,
      subject,
      status,
      detail,
      refusedWith,
      photo: form?.map(([, value]) => value).find((value): value is Blob => value instanceof Blob),
    })),
    discardedIds,
    sentIds,
  );
  for (const listener of listeners) listener();
}

async function reload() {
  const rows = (await entries<number, QueuedEntry>(db())).map(([, entry]) => entry);
  publish(rows.filter((entry) => entry.userId === userId).sort((a, b) => a.id - b.id));
}

/**
 * The waiting writes as the things the person did, oldest first: the writes of one action (a send
 * for approval with its photos, several photos picked at once) are one.
 */
export function groupByAction(entries: readonly QueuedEntry[]): QueuedEntry[][] {
  const groups = new Map<string | number, QueuedEntry[]>();
  for (const entry of entries) {
    const key = entry.action ?? entry.id;
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  return [...groups.values()];
}

/** How many things the person did that wait (see groupByAction). */
export function countActions(entries: readonly QueuedEntry[]): number {
  return groupByAction(entries).length;
}

/** The signed-in user's queued writes, oldest first (for useSyncExternalStore). */
export const queue = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  entries: () => snapshot,
};

/**
 * Starts the queue for a user: the writes of the api client that may wait (`queue` option) go
 * here while offline or while earlier ones wait; they are sent again, in order, with the key
 * made when the person acted, whenever the browser comes online. `synced` runs after each write
 * the server accepted (to reload what it changed).
 */
export async function startQueue(user: number, synced: () => void): Promise<() => void> {
  userId = user;
  onSynced = synced;
  setOfflineWriter({
    // Behind the writes that will go (a write held by a refused one to its own thing holds nobody else).
    mustQueue: (path) =>
      !navigator.onLine || snapshot.some((entry) => entry.status === 'waiting' && !heldBehindRefusal(snapshot, entry)) || heldBehindRefusal(snapshot, { id: Number.POSITIVE_INFINITY, path }),
    enqueue,
    flush: flushQueue,
    resendTo: resendEntryTo,
  });
  await reload();
  if (typeof BroadcastChannel === 'function') {
    channel = new BroadcastChannel(CHANNEL);
    // Another tab of this user changed the queue: read it again, and send what now waits (the same keys: sent twice, it acts once).
    channel.onmessage = (event: MessageEvent<{ userId?: unknown }>) => {
      if (event.data?.userId !== userId) return;
      void reload().then(() => {
        if (navigator.onLine && Date.now() >= comeBackAt) void flushQueue();
      });
    };
  }
  onlineManager.setEventListener(readsAfterWrites);
  void flushQueue();
  return () => {
    channel?.close();
    channel = null;
    onlineManager.setEventListener(browserConnection);
    clearTimeout(comeBack);
    setOfflineWriter(null);
    userId = null;
    publish([]);
  };
}

type SetOnline = (online: boolean) => void;

/** Calls `online` and `offline` as the browser's connection comes and goes; returns how to stop. */
export function watchConnection(online: () => void, offline: () => void) {
  window.addEventListener('online', online);
  window.addEventListener('offline', offline);
  return () => {
    window.removeEventListener('online', online);
    window.removeEventListener('offline', offline);
  };
}

/** Tells TanStack Query of the browser's connection: lost at once, back when `online` says. */
const connection = (setOnline: SetOnline, online: () => void) => watchConnection(online, () => setOnline(false));

/** TanStack Query's own way: its paused reads go out as soon as the browser has a connection. */
const browserConnection = (setOnline: SetOnline) => connection(setOnline, () => setOnline(true));

/**
 * Back online, the writes made meanwhile go first and the reads that waited after them (or after
 * one was refused): a list read first answered with the change undone, and once the write had
 * gone, showed its button again ("Send for Approval" on a task already sent, refused when pressed).
 */
const readsAfterWrites = (setOnline: SetOnline) => connection(setOnline, () => void flushQueue().finally(() => setOnline(navigator.onLine)));

async function enqueue(write: QueuedWrite) {
  if (userId === null) throw new Error('The offline queue has no user.');
  const id = Math.max(Date.now() * 1000, lastId + 1);
  lastId = id;
  const entry: QueuedEntry = { ...write, id, userId, createdAt: new Date().toISOString(), status: 'waiting' };
  await keep(entry);
  publish([...snapshot, entry]);
  // Online, a write queued behind others goes when its turn comes: the queue runs now, unless the
  // server said when to come back (then it runs then).
  if (navigator.onLine && Date.now() >= comeBackAt) void flushQueue();
}

/** The longest a "come back later" is waited for before the queue tries again on its own. */
const MAX_COME_BACK_SECONDS = 60;
let comeBack: ReturnType<typeof setTimeout> | undefined;

/** When the server said to come back (Retry-After, or the next try after no answer). */
let comeBackAt = 0;

function tryAgainLater(seconds: number) {
  comeBackAt = Date.now() + seconds * 1000;
  clearTimeout(comeBack);
  comeBack = setTimeout(() => void flushQueue(), seconds * 1000);
}

/** Tries in a row that got no answer while online: 2, 4, 8… seconds apart, at most a minute. */
let unanswered = 0;
const unansweredRetrySeconds = () => Math.min(2 ** ++unanswered, MAX_COME_BACK_SECONDS);

/**
 * "Not now" rather than "no": the server is busy (503), throttling (429) or out of disk space (507:
 * nothing was saved until someone makes room) and says when to come back, or the same write, sent
 * before the connection dropped, is still running there (409 with the key-in-progress code). The
 * write keeps waiting and goes again after Retry-After.
 */
function comeBackLater(error: ApiError): number | undefined {
  if (error.retryAfterSeconds === undefined) return undefined;
  const code = (error.body as { code?: unknown } | null)?.code;
  const transient = error.status === 503 || error.status === 507 || error.status === 429 || (error.status === 409 && code === IDEMPOTENCY_KEY_IN_PROGRESS_CODE);
  return transient ? Math.min(Math.max(error.retryAfterSeconds, 1), MAX_COME_BACK_SECONDS) : undefined;
}

/**
 * An answer not from SiteBoard itself but from a proxy in front of it, in its place (nginx's 502 or
 * 504 while the server restarts; a 503 that does not say when to come back): as good as no answer.
 * The write may or may not have arrived; its Idempotency-Key makes sending it again safe.
 */
function answeredByProxy(error: ApiError): boolean {
  return (error.status === 502 || error.status === 503 || error.status === 504) && error.retryAfterSeconds === undefined;
}

/**
 * Sends the waiting writes one at a time, oldest first. No answer (or a proxy's, answeredByProxy): they keep waiting (and, while
 * the browser says it is online, go again 2, 4, 8… seconds later). "Come back later" (comeBackLater): they keep waiting and are sent again after the
 * server's Retry-After. A refusal marks that write failed with the server's reason; the later
 * writes to the same task or day's log may depend on it, so they wait until it is retried or
 * discarded (heldBehindRefusal), and the others go on: a refused send for approval held back the
 * crew's hours on the daily log until the log was signed and refused them too.
 */
export function flushQueue(): Promise<void> {
  // `.finally` runs after the assignment even when nothing waits (a synchronous return inside would not).
  flushing ??= sendWaiting().finally(() => (flushing = null));
  return flushing;
}

async function sendWaiting() {
  for (;;) {
    const next = snapshot.find((entry) => entry.status === 'waiting' && !heldBehindRefusal(snapshot, entry));
    if (!next || !navigator.onLine) return;
    try {
      // When it was made, the same on every send: kept with it, else (queued before that was kept) when it was queued.
      await api(next.path, { method: next.method, body: bodyOfQueuedWrite(next), idempotencyKey: next.idempotencyKey, doneAt: next.doneAt ?? next.createdAt });
    } catch (error) {
      if (!(error instanceof ApiError) || answeredByProxy(error)) {
        // No answer though the browser says it is online (a weak signal, a dropped connection, a
        // server restarting behind its proxy): no "online" event will come, so the queue tries
        // again on its own, later each time.
        if (navigator.onLine) tryAgainLater(unansweredRetrySeconds());
        return;
      }
      const seconds = comeBackLater(error);
      if (seconds !== undefined) {
        tryAgainLater(seconds);
        return;
      }
      const failed: QueuedEntry = { ...next, status: 'failed', detail: error.detail, refusedWith: error.status };
      await keep(failed);
      publish(snapshot.map((entry) => (entry.id === next.id ? failed : entry)));
      continue;
    }
    unanswered = 0;
    await forget([next.id]);
    // Reload what it changed before the row loses its "waiting" mark: that reload also cancels a
    // read already under way, whose answer may predate the write.
    onSynced();
    publish(snapshot.filter((entry) => entry.id !== next.id), [], [next.id]);
  }
}

/** Sends a failed write again (same key: if it did act after all, the server answers as before). */
export function retryEntry(id: number) {
  return sendAgain(id, (entry) => entry);
}

/** Sends a refused write to another path, in its place in the queue, as a new write (resendRefusedWriteTo). */
export function resendEntryTo(id: number, path: string) {
  return sendAgain(id, (entry) => ({ ...entry, path, idempotencyKey: newIdempotencyKey() }));
}

async function sendAgain(id: number, change: (entry: QueuedEntry) => QueuedEntry) {
  const entry = snapshot.find((candidate) => candidate.id === id);
  // Pressed twice: the second press finds it on its way already (a new key each time would send it twice).
  if (entry?.status !== 'failed') return;
  const waiting: QueuedEntry = { ...change(entry), status: 'waiting', detail: undefined, refusedWith: undefined };
  publish(snapshot.map((candidate) => (candidate.id === id ? waiting : candidate)));
  await keep(waiting);
  await flushQueue();
}

/** Forgets writes (all those of one action at once: what follows the refused one must not go out alone). */
export async function discardEntries(ids: readonly number[]) {
  await forget(ids);
  publish(snapshot.filter((entry) => !ids.includes(entry.id)), ids);
  await flushQueue();
}

/** Sign-out: this device forgets the user's queued writes. */
export async function clearQueue() {
  await forget(snapshot.map((entry) => entry.id));
  publish([]);
}
