import type { Database, DbOrTx } from '../../db/client';
import { createMarkers } from '../../db/markers';
import type { AuthUser } from '../../lib/context';
import { findActiveIdentity } from './auth.queries';

/** Where the database announces every change that can end a user's access (migration 0004). */
export const IDENTITY_CHANNEL = 'siteboard_identity';
/** Identities kept per instance; past it the oldest is forgotten (it is read again when asked for). */
const MAX_ENTRIES = 20_000;

type Claims = { userId: number; companyId: number; family: string };

export interface IdentityCache {
  /** findActiveIdentity, answered from memory when this instance has read it since its last change. */
  find(claims: Claims): Promise<AuthUser | undefined>;
  /**
   * Resolves once every change committed before the call has reached this instance's listener,
   * and so (announcements go to every listener at once) every instance's.
   */
  settle(): Promise<void>;
  close(): Promise<void>;
}

const caches = new WeakMap<DbOrTx, IdentityCache>();

/**
 * For a service that has just committed a change to a user or a login: its answer goes out only
 * once no instance would still accept the old identity (decision record 017).
 */
export async function settleIdentityChanges(db: DbOrTx): Promise<void> {
  await caches.get(db)?.settle();
}

/**
 * Every authenticated request needs to know that its user and login are still live. Reading that
 * from the database cost a round trip per request; this keeps what was read, and forgets a user or
 * a login the moment the database announces a change to it (a trigger on users and refresh_tokens
 * NOTIFYs on commit). While the listening connection is down nothing is kept.
 */
export async function createIdentityCache(database: Database): Promise<IdentityCache> {
  const entries = new Map<string, AuthUser>();
  const keysByUser = new Map<number, Set<string>>();
  const keysByFamily = new Map<string, Set<string>>();
  /** Counts the forgettings: a read that overlapped one may hold the old answer, so it is not kept. */
  let generation = 0;
  let listening = true;

  const index = (map: Map<number | string, Set<string>>, id: number | string, key: string) => {
    const keys = map.get(id) ?? new Set();
    keys.add(key);
    map.set(id, keys);
  };
  const remove = (key: string) => {
    const identity = entries.get(key);
    if (!identity) return;
    entries.delete(key);
    keysByUser.get(identity.id)?.delete(key);
    if (keysByUser.get(identity.id)?.size === 0) keysByUser.delete(identity.id);
    const family = familyOf(key);
    keysByFamily.get(family)?.delete(key);
    if (keysByFamily.get(family)?.size === 0) keysByFamily.delete(family);
  };
  const forgetAll = () => {
    generation++;
    entries.clear();
    keysByUser.clear();
    keysByFamily.clear();
  };

  const markers = createMarkers(database, IDENTITY_CHANNEL, forgetAll);
  const stop = await database.listen(
    IDENTITY_CHANNEL,
    (payload) => {
      if (markers.arrived(payload)) return;
      const [kind, id = ''] = splitOnce(payload);
      generation++;
      const keys = kind === 'u' ? keysByUser.get(Number(id)) : kind === 'f' ? keysByFamily.get(id) : undefined;
      for (const key of [...(keys ?? [])]) remove(key);
    },
    (nowListening) => {
      // Announcements sent while the connection was down are lost: start from nothing.
      listening = nowListening;
      forgetAll();
    },
  );

  const cache: IdentityCache = {
    async find(claims) {
      const key = `${claims.userId}:${claims.companyId}:${claims.family}`;
      const known = entries.get(key);
      if (known) return known;
      const readAt = generation;
      const identity = await findActiveIdentity(database.db, claims);
      if (identity && listening && readAt === generation) {
        if (entries.size >= MAX_ENTRIES) remove(entries.keys().next().value!);
        entries.set(key, identity);
        index(keysByUser, identity.id, key);
        index(keysByFamily, claims.family, key);
      }
      return identity;
    },
    settle: markers.echo,
    async close() {
      caches.delete(database.db);
      await stop();
    },
  };
  caches.set(database.db, cache);
  return cache;
}

function splitOnce(payload: string): [string, string] {
  const colon = payload.indexOf(':');
  return colon < 0 ? [payload, ''] : [payload.slice(0, colon), payload.slice(colon + 1)];
}

function familyOf(key: string): string {
  return key.slice(key.lastIndexOf(':') + 1);
}
