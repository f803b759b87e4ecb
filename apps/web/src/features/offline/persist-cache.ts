import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import type { Query, QueryClient } from '@tanstack/react-query';
import { persistQueryClient, persistQueryClientSave, type PersistedClient } from '@tanstack/react-query-persist-client';
import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import type { Role } from '@siteboard/shared';
import { ApiError } from '../../lib/api-client';
import { queryRoots } from '../../lib/query-keys';

/** What was last seen is shown offline for a day; older than that it is not trusted. */
const MAX_AGE_MS = 24 * 60 * 60 * 1000;

let store: UseStore | undefined;
const db = () => (store ??= createStore('siteboard-cache', 'queries'));
const cacheKey = (userId: number) => `siteboard-queries-${userId}`;

/**
 * What each step of a role's view narrowed, oldest first: the answers, by the first part of their
 * key, that may hold what the narrower rule hides (decision record 119). A step is added whenever
 * what a role may see of an answer narrows, in the commit that narrows the server's answer; the
 * role's devices then drop those answers they kept under the old rule, and keep the rest.
 * Team member, step 1 (record 118): colleagues' mobile numbers and managers, which only whole user
 * records carry: the users lists (pickers, the people search, the sheets' assignees, the admin's
 * table) and the admin dashboard's first pages. Managers and admins see what they saw.
 */
const NARROWED: Record<Role, readonly (readonly string[])[]> = {
  team_member: [[queryRoots.users[0], queryRoots.adminDashboard[0]]],
  manager: [],
  admin: [],
};

/** A role's version: how often what it may see narrowed. */
const SEEN_AS_VERSION = (role: Role) => NARROWED[role].length;

/** What was kept is read back only under the version and the role it was kept with: a person whose role changed sees nothing kept under the old one. */
const cacheBuster = (role: Role) => `${SEEN_AS_VERSION(role)}:${role}`;

/** The version a kept client was kept under by this role; undefined when another role kept it. Before versions (an empty buster) is the role's version 0. */
function keptVersion(buster: string, role: Role): number | undefined {
  if (buster === '') return 0;
  const [version, keptAs] = buster.split(':');
  return keptAs === role && /^\d+$/.test(version ?? '') ? Number(version) : undefined;
}

/**
 * What a device kept under an older version of the role (before versions: an empty buster, read as
 * version 0) comes back without the answers a narrowing since may have hidden, and under the
 * role's current version: the rest of the last-seen screens (projects, tasks, daily logs) survive
 * the update, the colleagues' phone numbers do not. What another role kept is left as it is (the
 * persister discards it whole: its buster differs).
 */
export function adoptKept(kept: PersistedClient, role: Role): PersistedClient {
  const version = keptVersion(kept.buster, role);
  if (version === undefined || version > SEEN_AS_VERSION(role) || kept.buster === cacheBuster(role)) return kept;
  const hidden = new Set(NARROWED[role].slice(version).flat());
  const queries = kept.clientState.queries.filter((query) => !hidden.has(String(query.queryKey[0])));
  return { ...kept, buster: cacheBuster(role), clientState: { ...kept.clientState, queries } };
}

/**
 * Keeps the user's cached answers in IndexedDB and puts them back on the next start, so the
 * last-seen screens show without a signal. Photos (blobs) stay out: they do not survive JSON.
 * Answers how to stop keeping them, and when what was kept is back (changes are kept from then on).
 */
export function startCachePersistence(queryClient: QueryClient, user: { id: number; role: Role }): { stop: () => void; restored: Promise<void> } {
  // Once stopped (signed out, or the role changed), it writes nothing more: a save it had put off
  // would land after the next one's and keep what the screens held then.
  let stopped = false;
  const persister = createAsyncStoragePersister({
    storage: {
      getItem: (key) => get<string>(key, db()),
      setItem: (key, value: string) => (stopped ? undefined : set(key, value, db())),
      removeItem: (key) => del(key, db()),
    },
    key: cacheKey(user.id),
    throttleTime: 1000,
    serialize: (client) => JSON.stringify(asLastSeen(client)),
    deserialize: (text) => {
      const kept = JSON.parse(text) as PersistedClient;
      // Stopped before its read came back (the role changed meanwhile): what it read is not put back.
      return stopped ? { ...kept, clientState: { mutations: [], queries: [] } } : adoptKept(kept, user.role);
    },
  });
  const options = {
    queryClient,
    persister,
    maxAge: MAX_AGE_MS,
    buster: cacheBuster(user.role),
    dehydrateOptions: { shouldDehydrateQuery: (query: Query) => query.state.data !== undefined && query.queryKey[0] !== 'image' },
  };
  const [unsubscribe, restored] = persistQueryClient(options);
  // What the screens hold once the kept answers are back is kept at once, under this version and
  // role: what a narrowing dropped leaves the device now, not at the next change of an answer.
  void restored.then(() => (stopped ? undefined : persistQueryClientSave(options)));
  const stop = () => {
    stopped = true;
    unsubscribe();
  };
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
