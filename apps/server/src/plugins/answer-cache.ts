import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler, onSendAsyncHookHandler, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { createMarkers } from '../db/markers';

/** Where the database announces the company whose data a commit changed (migration 0012). */
export const CHANGES_CHANNEL = 'siteboard_changes';
/** Bytes of answers kept per instance; past it the least recently used are forgotten. */
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;
/** Headers of an answer that belong to this exchange only, never replayed. */
const NOT_REPLAYED = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'set-cookie']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The answer depends only on the database's rows of the caller's company, the caller, the URL
     * and the minute: an instance may answer it again from memory until the company's data changes.
     */
    cacheAnswer?: boolean;
  }
  interface FastifyInstance {
    answerCache: AnswerCache;
  }
  interface FastifyRequest {
    /** Set on a cacheable request that missed: where its answer goes, and the generation it was read in. */
    answerSlot: { key: string; companyId: number; generation: number; epoch: number } | null;
  }
}

interface Entry {
  companyId: number;
  bytes: number;
  payload: string | Buffer;
  headers: Record<string, string | number | string[]>;
}

export interface AnswerCache {
  /** Resolves once every change committed before the call has reached this instance (tests, two instances). */
  settle(): Promise<void>;
  /** How many answers it holds (tests). */
  readonly size: number;
  /** Whether it hears the database's announcements; while not, it keeps nothing (tests). */
  readonly listening: boolean;
}

/**
 * Answers to a company's list calls, kept in memory until the company's data changes (decision
 * record 039). A cacheable GET (`config: { cacheAnswer: true }`) is answered again, compressed as
 * it went out, when the same person asks the same URL in the same minute with the same encoding
 * and nothing of their company has changed since. Every write to a table a list reads announces
 * its company on commit (a trigger, migration 0012): each instance then forgets that company's
 * answers. After a write through this instance (counted by its pool) nothing is served until the
 * announcements sent before it are back, so whoever wrote reads their change at once. While the
 * listening connection is down nothing is kept.
 */
export const answerCachePlugin = fp(
  async (app: FastifyInstance, options: { enabled: boolean; maxBytes?: number }) => {
    if (!options.enabled) {
      app.decorate('answerCache', { size: 0, listening: false, settle: async () => {} } satisfies AnswerCache);
      return;
    }
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    const entries = new Map<string, Entry>();
    const keysByCompany = new Map<number, Set<string>>();
    /** Per company, how many times its answers were forgotten: an answer read across a change is not kept. */
    const generations = new Map<number, number>();
    let bytes = 0;
    let listening = true;

    const remove = (key: string) => {
      const entry = entries.get(key);
      if (!entry) return;
      entries.delete(key);
      bytes -= entry.bytes;
      const keys = keysByCompany.get(entry.companyId);
      keys?.delete(key);
      if (keys?.size === 0) keysByCompany.delete(entry.companyId);
    };
    const forgetCompany = (companyId: number) => {
      generations.set(companyId, (generations.get(companyId) ?? 0) + 1);
      for (const key of [...(keysByCompany.get(companyId) ?? [])]) remove(key);
    };
    /** Counts the times everything was forgotten: a read that overlapped one, for any company, is not kept. */
    let epoch = 0;
    const forgetAll = () => {
      epoch++;
      entries.clear();
      keysByCompany.clear();
      bytes = 0;
    };

    const markers = createMarkers(app.database, CHANGES_CHANNEL, forgetAll);
    const stop = await app.database.listen(
      CHANGES_CHANNEL,
      (payload) => {
        if (markers.arrived(payload)) return;
        const companyId = Number(payload);
        if (Number.isInteger(companyId)) forgetCompany(companyId);
      },
      (nowListening) => {
        // Announcements sent while the connection was down are lost: start from nothing.
        listening = nowListening;
        forgetAll();
      },
    );
    app.addHook('onClose', () => stop());

    // This instance's own writes: until their announcements are back, a kept answer may predate
    // them, so none is served. One marker at a time finds out when they are.
    let heardWrites = app.database.completedWrites();
    let catchingUp: Promise<void> | undefined;
    const catchUp = async () => {
      const writes = app.database.completedWrites();
      await markers.echo();
      heardWrites = Math.max(heardWrites, writes);
    };
    const caughtUp = () => {
      if (app.database.completedWrites() === heardWrites) return true;
      catchingUp ??= catchUp()
        .catch(() => {})
        .finally(() => (catchingUp = undefined));
      return false;
    };

    const lookUp: onRequestAsyncHookHandler = async (request, reply) => {
      const user = request.user;
      if (!user || request.method !== 'GET') return;
      const key = answerKey(request, user);
      const entry = entries.get(key);
      if (entry && caughtUp()) {
        // Least recently used last: the first key is the next to forget.
        entries.delete(key);
        entries.set(key, entry);
        return reply.headers(entry.headers).send(entry.payload);
      }
      if (listening) request.answerSlot = { key, companyId: user.companyId, generation: generations.get(user.companyId) ?? 0, epoch };
    };

    const keep: onSendAsyncHookHandler<unknown> = async (request, reply, payload) => {
      const slot = request.answerSlot;
      if (!slot || reply.statusCode !== 200 || !(typeof payload === 'string' || Buffer.isBuffer(payload))) return payload;
      if (!listening || slot.epoch !== epoch || (generations.get(slot.companyId) ?? 0) !== slot.generation) return payload;
      // JSON only: an export of the same list (?format=csv) streams and is not kept.
      if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
      const size = Buffer.byteLength(payload) + slot.key.length;
      if (size > maxBytes / 16) return payload;
      remove(slot.key);
      while (bytes + size > maxBytes && entries.size > 0) remove(entries.keys().next().value!);
      entries.set(slot.key, { companyId: slot.companyId, bytes: size, payload, headers: replayedHeaders(reply) });
      bytes += size;
      const keys = keysByCompany.get(slot.companyId) ?? new Set();
      keys.add(slot.key);
      keysByCompany.set(slot.companyId, keys);
      return payload;
    };

    app.decorateRequest('answerSlot', null);
    // Added per route after the compression plugin's own hooks (registered before this plugin),
    // so an answer is kept as it went out, compressed, and is served again without compressing.
    app.addHook('onRoute', (route: RouteOptions) => {
      if (!route.config?.cacheAnswer) return;
      route.onRequest = [...hookList(route.onRequest), lookUp];
      route.onSend = [...hookList(route.onSend), keep];
    });

    app.decorate('answerCache', {
      get size() {
        return entries.size;
      },
      get listening() {
        return listening;
      },
      settle: catchUp,
    } satisfies AnswerCache);
  },
  { name: 'answer-cache', dependencies: ['db', 'auth'] },
);

/**
 * Who asks (and as which role, in which language), what, in which minute (answers that say
 * "today" or "overdue" turn at a minute's edge in every time zone), and how it is compressed.
 */
function answerKey(request: FastifyRequest, user: FastifyRequest['user']): string {
  const minute = Math.floor(Date.now() / 60_000);
  return `${user.companyId}|${user.id}|${user.role}|${user.language}|${minute}|${request.headers['accept-encoding'] ?? ''}|${request.url}`;
}

function replayedHeaders(reply: FastifyReply): Entry['headers'] {
  const headers: Entry['headers'] = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined && !NOT_REPLAYED.has(name.toLowerCase())) headers[name] = value;
  }
  return headers;
}

function hookList<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}
