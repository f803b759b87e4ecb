import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import type { QueryClient } from '@tanstack/react-query';
import { persistQueryClient, type PersistedClient } from '@tanstack/react-query-persist-client';
import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import type { Role } from '@siteboard/shared';
import { ApiError } from '../../lib/api-client';

/** What was last seen is shown offline for a day; older than that it is not trusted. */
const MAX_AGE_MS = 24 * 60 * 60 * 1000;

let store: UseStore | undefined;
const db = () => (store ??= createStore('siteboard-cache', 'queries'));
const cacheKey = (userId: number) => `siteboard-queries-${userId}`;

/**
 * Raised for a role whenever what it may see of an answer narrows, so that its devices drop what
 * they kept under the old rule instead of showing it offline (decision record 119). Team member 1:
 * they no longer see colleagues' mobile numbers and managers (decision record 118); the answers
 * kept before carried them. Managers and admins see what they saw: their devices keep theirs.
 */
const SEEN_AS_VERSION: Record<Role, number> = { team_member: 1, manager: 0, admin: 0 };

/** What was kept is read back only under the version and the role it was kept with: a person whose role changed sees nothing kept under the old one. */
const cacheBuster = (role: Role) => `${SEEN_AS_VERSION[role]}:${role}`;

/**
 * What a device kept before answers carried a version and a role (an empty buster) is read as kept
 * under the role's version 0: a manager's or admin's last-seen screens survive the update that
 * brought versions (a start without a signal right after it would show them empty), a team
 * member's go (their version is past 0).
 */
export function adoptUnversioned(kept: PersistedClient, role: Role): PersistedClient {
  return kept.buster === '' && SEEN_AS_VERSION[role] === 0 ? { ...kept, buster: cacheBuster(role) } : kept;
}

/**
 * Keeps the user's cached answers in IndexedDB and puts them back on the next start, so the
 * last-seen screens show without a signal. Photos (blobs) stay out: they do not survive JSON.
 * Answers how to stop keeping them, and when what was kept is back (changes are kept from then on).
 */
export function startCachePersistence(queryClient: QueryClient, user: { id: number; role: Role }): { stop: () => void; restored: Promise<void> } {
  const persister = createAsyncStoragePersister({
    storage: { getItem: (key) => get<string>(key, db()), setItem: (key, value: string) => set(key, value, db()), removeItem: (key) => del(key, db()) },
    key: cacheKey(user.id),
    throttleTime: 1000,
    serialize: (client) => JSON.stringify(asLastSeen(client)),
    deserialize: (kept) => adoptUnversioned(JSON.parse(kept) as PersistedClient, user.role),
  });
  const [stop, restored] = persistQueryClient({
    queryClient,
    persister,
    maxAge: MAX_AGE_MS,
    buster: cacheBuster(user.role),
    dehydrateOptions: { shouldDehydrateQuery: (query) => query.state.data !== undefined && query.queryKey[0] !== 'image' },
  });
  return { stop, restored };
}

/**
 * The answers the screens hold, kept as last seen: one whose reload then got no answer (no signal,
 * a dropped connection) still holds what was shown. Kept only while it succeeded, it was dropped
 * the moment a read failed offline, and a reload without a signal had nothing to show. One the
 * server refused since (a project deleted, a task no longer theirs) is not kept, nor one loaded
 * more than a day ago (kept again and again, it would outlive the day it is trusted for).
 */
export function asLastSeen(client: PersistedClient, now = Date.now()): PersistedClient {
  const queries = client.clientState.queries
    .filter((query) => !(query.state.error instanceof ApiError) && now - query.state.dataUpdatedAt <= MAX_AGE_MS)
    .map((query) =>
      query.state.status === 'error' ? { ...query, state: { ...query.state, status: 'success' as const, error: null, fetchFailureCount: 0, fetchFailureReason: null } } : query,
    );
  return { ...client, clientState: { ...client.clientState, queries } };
}

/** Sign-out: this device forgets what the user saw, the drawings' tiles its service worker kept included (decision record 071). */
export async function clearPersistedCache(userId: number) {
  if ('caches' in globalThis) await caches.delete('sheet-tiles');
  return del(cacheKey(userId), db());
}
