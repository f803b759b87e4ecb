import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../database/client';
import { idempotencyKeys } from '../../schema/idempotency';
import { AppError, ConflictError, ValidationError } from '../errors';
import { isMultipartBody } from './multipart';

export const KEY_INVALID = 'The Idempotency-Key header must be 1 to 255 printable ASCII characters.';
export const KEY_REUSED = 'This Idempotency-Key was already used for a different request: send a new key with a new request.';
export const KEY_IN_PROGRESS = 'A request with this Idempotency-Key is still in progress: try again in a moment.';
/** Set on an answer that was stored and is sent again, not acted on again. */
export const REPLAYED_HEADER = 'idempotent-replayed';

/** How long a key and its answer are kept: an offline phone replays its queue within a day. */
export const KEEP_HOURS = 24;
/** How long a duplicate waits for the first request's answer before it is told 409. */
const WAIT_MS = 10_000;
const POLL_MS = 100;
/** A claim without an answer this old belongs to a request whose process died: a repeat may act. */
const STALE_CLAIM_MS = 120_000;
/** Rows one sweep statement deletes at most, so a sweep never holds the table long. */
const SWEEP_BATCH = 5_000;

const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
const VALID_KEY = /^[\x20-\x7e]{1,255}$/;

declare module 'fastify' {
  interface FastifyRequest {
    /** The idempotency row this request claimed and answers into; null without a key. */
    idempotencyClaim: number | null;
  }
}

export interface IdempotencyOptions {
  /** How often expired keys are deleted; unset: never (tests call `sweepIdempotencyKeys`). */
  sweepIntervalSeconds?: number;
}

/**
 * `Idempotency-Key` on every write of the scope it is registered in (decision record 031): the
 * first request with a key acts and its 2xx answer is stored; a repeat with the same key and the
 * same request gets that answer again without acting; the same key with another request is 422.
 * The key is claimed by inserting its row before the write acts, so of two concurrent duplicates
 * exactly one acts and the other waits for its answer.
 */
export const idempotencyPlugin = fp(
  async (app: FastifyInstance, options: IdempotencyOptions) => {
    app.decorateRequest('idempotencyClaim', null);
    // A scope hook runs before the routes' own preValidation hooks: a repeat is answered before
    // the route looks again at rows the first request changed.
    app.addHook('preValidation', (request, reply) => claimOrReplay(app.db, request, reply));
    app.addHook('onSend', async (request, reply, payload) => {
      const claim = request.idempotencyClaim;
      if (claim === null) return payload;
      request.idempotencyClaim = null;
      await keepAnswer(app.db, claim, reply, payload);
      return payload;
    });
    const sweeper = options.sweepIntervalSeconds ? startSweeper(app.db, app.log, options.sweepIntervalSeconds * 1000) : undefined;
    app.addHook('onClose', async () => sweeper?.stop());
  },
  { name: 'idempotency', dependencies: ['db'] },
);

async function claimOrReplay(db: Db, request: FastifyRequest, reply: FastifyReply) {
  if (!WRITE_METHODS.has(request.method)) return;
  const header = request.headers['idempotency-key'];
  if (header === undefined) return;
  const key = typeof header === 'string' ? header : undefined;
  if (!key || !VALID_KEY.test(key) || key.trim() === '') throw new ValidationError(KEY_INVALID);

  const owner = { companyId: request.user.companyId, userId: request.user.id, key };
  const fingerprint = fingerprintOf(request);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const [claimed] = await db
      .insert(idempotencyKeys)
      .values({ ...owner, fingerprint })
      .onConflictDoNothing()
      .returning({ id: idempotencyKeys.id });
    if (claimed) {
      request.idempotencyClaim = claimed.id;
      return;
    }
    const [stored] = await db
      .select({
        id: idempotencyKeys.id,
        fingerprint: idempotencyKeys.fingerprint,
        statusCode: idempotencyKeys.statusCode,
        contentType: idempotencyKeys.contentType,
        location: idempotencyKeys.location,
        body: idempotencyKeys.body,
        stale: sql<boolean>`${idempotencyKeys.createdAt} < now() - ${`${STALE_CLAIM_MS} milliseconds`}::interval`,
      })
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.companyId, owner.companyId), eq(idempotencyKeys.userId, owner.userId), eq(idempotencyKeys.key, key)));
    // Released in between (the first request failed): claim it afresh.
    if (!stored) continue;
    if (stored.fingerprint !== fingerprint) throw new AppError(422, KEY_REUSED);
    if (stored.statusCode !== null) {
      reply.code(stored.statusCode).header(REPLAYED_HEADER, 'true');
      if (stored.contentType) reply.header('content-type', stored.contentType);
      if (stored.location) reply.header('location', stored.location);
      return reply.send(stored.body ?? undefined);
    }
    if (stored.stale) {
      const [taken] = await db
        .update(idempotencyKeys)
        .set({ createdAt: sql`now()` })
        .where(and(eq(idempotencyKeys.id, stored.id), isNull(idempotencyKeys.statusCode), lt(idempotencyKeys.createdAt, sql`now() - ${`${STALE_CLAIM_MS} milliseconds`}::interval`)))
        .returning({ id: idempotencyKeys.id });
      if (taken) {
        request.idempotencyClaim = taken.id;
        return;
      }
    }
    if (Date.now() >= deadline) throw new ConflictError(KEY_IN_PROGRESS);
    await sleep(POLL_MS);
  }
}

/**
 * A success is kept for repeats. A refusal or failure acted on nothing (every write is one
 * transaction), so its claim is released: a retry acts afresh and is judged on the state it meets.
 */
async function keepAnswer(db: Db, claim: number, reply: FastifyReply, payload: unknown) {
  const status = reply.statusCode;
  const storable = payload === undefined || payload === null || typeof payload === 'string';
  if (status >= 200 && status < 300 && storable) {
    const contentType = reply.getHeader('content-type');
    const location = reply.getHeader('location');
    await db
      .update(idempotencyKeys)
      .set({
        statusCode: status,
        contentType: typeof contentType === 'string' ? contentType : null,
        location: typeof location === 'string' ? location : null,
        body: (payload as string | null | undefined) ?? null,
      })
      .where(eq(idempotencyKeys.id, claim));
  } else {
    await db.delete(idempotencyKeys).where(eq(idempotencyKeys.id, claim));
  }
}

/**
 * What makes two requests "the same": method, path and body. A JSON body counts by its content
 * (keys sorted), so a client that serialises it again in another order still matches.
 */
function fingerprintOf(request: FastifyRequest): string {
  const path = request.url.replace(/\/(?=\?|$)/, '');
  return createHash('sha256').update(`${request.method} ${path}\n${bodyFingerprint(request.body)}`).digest('hex');
}

/**
 * A multipart body counts by its parts (names, filenames, types and bytes, hashed as they streamed
 * in), not by its boundary, which is new each time a form is built again: a faithful retry of an
 * upload matches, another photo under the same key does not.
 */
function bodyFingerprint(body: unknown): string {
  if (isMultipartBody(body)) return `multipart ${body.digest}`;
  return body === undefined ? '' : canonicalJson(body);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${canonicalJson(record[name])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Deletes keys older than a day, a bounded batch per statement; answers how many went. */
export async function sweepIdempotencyKeys(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - KEEP_HOURS * 3_600_000);
  let deleted = 0;
  for (;;) {
    const expired = db.select({ id: idempotencyKeys.id }).from(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff)).limit(SWEEP_BATCH);
    const rows = await db.delete(idempotencyKeys).where(inArray(idempotencyKeys.id, expired)).returning({ id: idempotencyKeys.id });
    deleted += rows.length;
    if (rows.length < SWEEP_BATCH) return deleted;
  }
}

/** Same shape as the notification sweeper: any instance may sweep, the deletes do not collide. */
function startSweeper(db: Db, log: FastifyBaseLogger, intervalMs: number) {
  let running: Promise<void> | undefined;
  const sweep = () => {
    running ??= sweepIdempotencyKeys(db, new Date())
      .then(
        (deleted) => {
          if (deleted > 0) log.info({ deleted }, 'idempotency key sweep');
        },
        (error: unknown) => log.error({ err: error }, 'idempotency key sweep failed'),
      )
      .finally(() => (running = undefined));
  };
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
