import { LRUCache } from 'lru-cache';
import type { AuthUser } from './context';
import type { ChangeFeed } from './database/change-feed';

/** Identities kept per instance; past it the least recently used is forgotten (it is read again when asked for). */
const MAX_ENTRIES = 20_000;

/** What an access token names: a user of a company, signed in through one login (refresh-token family). */
export interface IdentityClaims {
  userId: number;
  companyId: number;
  family: string;
}

export interface IdentityCache {
  /** `load(claims)`, answered from memory when this instance has read it since its last change. */
  find(claims: IdentityClaims): Promise<AuthUser | undefined>;
  close(): void;
}

/**
 * Every authenticated request needs to know that its user and login are still live. Reading that
 * from the database cost a round trip per request; this keeps what was read, and forgets a user
 * (`u:<id>`) or a login (`f:<family>`) the moment the change feed announces a change to it
 * (triggers on users and refresh_tokens, migration 0013; decision record 017). While the feed is
 * not listening nothing is kept, and whatever it may have missed is forgotten.
 */
export function createIdentityCache(changes: ChangeFeed, load: (claims: IdentityClaims) => Promise<AuthUser | undefined>): IdentityCache {
  const keysByUser = new Map<number, Set<string>>();
  const keysByFamily = new Map<string, Set<string>>();
  const index = <Id>(map: Map<Id, Set<string>>, id: Id, key: string) => {
    const keys = map.get(id) ?? new Set();
    keys.add(key);
    map.set(id, keys);
  };
  const unindex = <Id>(map: Map<Id, Set<string>>, id: Id, key: string) => {
    const keys = map.get(id);
    keys?.delete(key);
    if (keys?.size === 0) map.delete(id);
  };
  const entries = new LRUCache<string, { identity: AuthUser; family: string }>({
    max: MAX_ENTRIES,
    dispose: (entry, key) => {
      unindex(keysByUser, entry.identity.id, key);
      unindex(keysByFamily, entry.family, key);
    },
  });
  /** Counts the forgettings: a read that overlapped one may hold the old answer, so it is not kept. */
  let generation = 0;
  const forget = (keys: Set<string> | undefined) => {
    generation++;
    for (const key of [...(keys ?? [])]) entries.delete(key);
  };
  const forgetAll = () => {
    generation++;
    entries.clear();
  };

  const stops = [
    changes.on('u', (id) => forget(keysByUser.get(Number(id)))),
    changes.on('f', (family) => forget(keysByFamily.get(family))),
    changes.onMissed(forgetAll),
  ];

  return {
    async find(claims) {
      const key = `${claims.userId}:${claims.companyId}:${claims.family}`;
      const known = entries.get(key);
      if (known) return known.identity;
      const readAt = generation;
      const identity = await load(claims);
      if (identity && changes.listening && readAt === generation) {
        entries.set(key, { identity, family: claims.family });
        index(keysByUser, identity.id, key);
        index(keysByFamily, claims.family, key);
      }
      return identity;
    },
    close() {
      for (const stop of stops) stop();
      entries.clear();
    },
  };
}
