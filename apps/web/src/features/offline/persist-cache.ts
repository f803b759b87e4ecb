import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import type { QueryClient } from '@tanstack/react-query';
import { persistQueryClient } from '@tanstack/react-query-persist-client';
import { createStore, del, get, set, type UseStore } from 'idb-keyval';

/** What was last seen is shown offline for a day; older than that it is not trusted. */
const MAX_AGE_MS = 24 * 60 * 60 * 1000;

let store: UseStore | undefined;
const db = () => (store ??= createStore('siteboard-cache', 'queries'));
const cacheKey = (userId: number) => `siteboard-queries-${userId}`;

/**
 * Keeps the user's cached answers in IndexedDB and puts them back on the next start, so the
 * last-seen screens show without a signal. Photos (blobs) stay out: they do not survive JSON.
 * Answers the function that stops keeping them.
 */
export function startCachePersistence(queryClient: QueryClient, userId: number): () => void {
  const persister = createAsyncStoragePersister({
    storage: { getItem: (key) => get<string>(key, db()), setItem: (key, value: string) => set(key, value, db()), removeItem: (key) => del(key, db()) },
    key: cacheKey(userId),
    throttleTime: 1000,
  });
  const [stop] = persistQueryClient({
    queryClient,
    persister,
    maxAge: MAX_AGE_MS,
    dehydrateOptions: { shouldDehydrateQuery: (query) => query.state.status === 'success' && query.queryKey[0] !== 'image' },
  });
  return stop;
}

/** Sign-out: this device forgets what the user saw, the drawings' tiles its service worker kept included (decision record 071). */
export async function clearPersistedCache(userId: number) {
  if ('caches' in globalThis) await caches.delete('sheet-tiles');
  return del(cacheKey(userId), db());
}
