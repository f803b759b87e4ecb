import { createHash, createHmac, hkdfSync } from 'node:crypto';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { IDEMPOTENCY_KEY_IN_PROGRESS_CODE, KEYED_WRITE_METHODS } from '@siteboard/shared';
import type { Db, DbOrTx, Tx } from '../database/client';
import { deferUntilCommit, settleChanges, type AfterCommit } from '../database/change-feed';
import { isLockTimeout } from '../database/db-errors';
import { registerDatabaseView } from '../database/statements';
import type { Metrics } from '../metrics';
import { idempotencyKeys } from '../../schema/idempotency';
import { AppError, ConflictError, ValidationError } from '../errors';
import { startSweep } from '../sweep';
import { isMultipartBody } from './multipart';

export const KEY_INVALID = 'The Idempotency-Key header must be 1 to 255 printable ASCII characters.';
export const KEY_REUSED = 'This Idempotency-Key was already used for a different request: send a new key with a new request.';
export const KEY_IN_PROGRESS = 'A request with this Idempotency-Key is still in progress: try again in a moment.';
/** Set on an answer that was stored and is sent again, not acted on again. */
export const REPLAYED_HEADER = 'idempotent-replayed';

/**
 * How long a key and its answer are kept: a week. A phone whose write went but whose answer was
 * lost as the signal dropped sends it again when it is back, which on a site can be after a
 * weekend or a holiday switched off; a day let Monday's resend of Friday's write act again.
 */
export const KEEP_HOURS = 7 * 24;
/** The most keys one user keeps: past it the oldest are forgotten first, whatever their age. */
export const KEYS_PER_USER = 1_000;
/**
 * A claim without an answer is left only by a server of the version before decision record 050
 * (during a rolling update), whose request may still run: this old, its process is gone.
 */
const STALE_CLAIM_MS = 120_000;
/**
 * How long a duplicate waits for the request that holds its key to end (PostgreSQL's row lock on
 * the claim) before it is told to come back: a keyed write usually ends within milliseconds, and
 * a client that waited longer could not tell a slow first request from a stuck one.
 */
export const KEY_WAIT_MS = 3_000;
/** Rows one sweep statement deletes at most, so a sweep never holds the table long. */
const SWEEP_BATCH = 5_000;

const VALID_KEY = /^[\x20-\x7e]{1,255}$/;

/** Where a test makes the server kill itself (SIGKILL), around the commit of a keyed write. */
export type CrashPoint = 'before-commit' | 'after-commit';

declare module 'fastify' {
  interface FastifyRequest {
    /** The keyed write this request runs in; null without a key. */
    keyedWrite: KeyedWrite | null;
  }
  interface FastifyContextConfig {
    /**
     * Done twice, the write leaves what once would (turning the calendar feed off, its option), or
     * the second answer is the one that counts (a new feed URL, the first never seen): it takes no
     * Idempotency-Key, for its answer holds a secret that must not be kept with one.
     */
    repeatable?: boolean;
  }
}

export interface IdempotencyOptions {
  /** What request fingerprints are keyed with (`fingerprintKey` of the server's secret). */
  fingerprintKey: Buffer;
  /** How often expired keys are deleted; unset: never (tests call `sweepIdempotencyKeys`). */
  sweepIntervalSeconds?: number;
  /** Test only: the server kills itself with SIGKILL at this point of every keyed write. */
  crashAt?: CrashPoint;
  /** How long a duplicate waits for its key's first request (KEY_WAIT_MS unless set; tests shorten it). */
  keyWaitMs?: number;
}

interface Owner {
  companyId: number;
  userId: number;
  key: string;
  fingerprint: string;
  /** The method and path the key is for (`keyUsedBefore`). */
  target: string;
  /** The same request's fingerprint as kept before it was an HMAC: matched, never stored (`sameRequest`). */
  plainFingerprint: () => string;
}

/**
 * Whether a kept key was claimed by this very request. Keys claimed before the fingerprint became
 * an HMAC (2026-11-29) hold a plain SHA-256 until they are swept (a week, KEEP_HOURS): a phone that
 * resends across the upgrade still gets its first answer, not a 422. Remove the plain match after 2026-12-07.
 */
const sameRequest = (stored: { fingerprint: string }, owner: Owner) => stored.fingerprint === owner.fingerprint || stored.fingerprint === owner.plainFingerprint();

interface StoredAnswer {
  fingerprint: string;
  statusCode: number | null;
  contentType: string | null;
  location: string | null;
  body: string | null;
  stale: boolean;
}

/** A duplicate of a request still running: 409, and when to try again; the retry gets the first one's answer. */
export class KeyInProgressError extends ConflictError {
  constructor() {
    super(KEY_IN_PROGRESS);
    this.code = IDEMPOTENCY_KEY_IN_PROGRESS_CODE;
    this.retryAfterSeconds = 1;
  }
}

/**
 * The answer a repeat gets instead of acting: thrown where a keyed write finds, on beginning, that
 * a duplicate has committed first; the error handler sends it (`sendReplay`).
 */
export class ReplayedAnswer extends Error {
  constructor(readonly answer: StoredAnswer) {
    super('replayed');
  }
}

/**
 * `Idempotency-Key` on every write of the scope it is registered in (decision records 031, 050):
 * the first request with a key acts and its 2xx answer is stored; a repeat with the same key and
 * the same request gets that answer again without acting; the same key with another request is
 * 422. The key is claimed and its answer stored in the same transaction as the write: a crash at
 * any moment leaves either the write with its answer or neither.
 */
export const idempotencyPlugin = fp(
  async (app: FastifyInstance, options: IdempotencyOptions) => {
    app.decorateRequest('keyedWrite', null);
    // After the routes' guards (before the body, `guardedBy`), which let a used key's retry through
    // to here: a repeat is answered as the first request was, whatever the guards would say now.
    app.addHook('preValidation', async (request, reply) => {
      const owner = ownerOf(request, options.fingerprintKey);
      if (!owner) return;
      const write = new KeyedWrite(app.db, owner, options.crashAt, options.keyWaitMs ?? KEY_WAIT_MS, request.log);
      if (request.routeOptions.config.upload) {
        // An upload processes its photo first, for a second or more: its transaction begins with
        // its service's, so that the embedded database's one connection is not held meanwhile.
        const stored = await findAnswer(app.db, owner);
        if (stored) return sendReplay(reply, judged(stored, owner));
        request.keyedWrite = write;
        request.ctx.db = write.lazyDb(request.ctx);
        return;
      }
      request.keyedWrite = write;
      request.ctx.db = await write.begin();
    });
    app.addHook('onSend', async (request, reply, payload) => {
      const write = request.keyedWrite;
      if (!write) return payload;
      request.keyedWrite = null;
      await write.end(reply, payload);
      return payload;
    });
    // Never left open: a request that ended without its answer passing onSend keeps nothing.
    app.addHook('onResponse', async (request) => request.keyedWrite?.abandon());
    const sweeper = options.sweepIntervalSeconds ? startSweeper(app.db, app.log, app.metrics, options.sweepIntervalSeconds * 1000) : undefined;
    app.addHook('onClose', async () => sweeper?.stop());
  },
  { name: 'idempotency', dependencies: ['db', 'metrics'] },
);

/** Whether this request is a write that takes an Idempotency-Key (a `repeatable` route takes none). */
const takesKey = (request: FastifyRequest) => KEYED_WRITE_METHODS.has(request.method) && !request.routeOptions.config.repeatable;

function ownerOf(request: FastifyRequest, fingerprintKey: Buffer): Owner | undefined {
  if (!takesKey(request)) return undefined;
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  const key = typeof header === 'string' ? header : undefined;
  if (!key || !VALID_KEY.test(key) || key.trim() === '') throw new ValidationError(KEY_INVALID);
  return {
    companyId: request.user.companyId,
    userId: request.user.id,
    key,
    fingerprint: requestFingerprint(fingerprintKey, request.method, request.url, request.body),
    target: targetOf(request),
    plainFingerprint: () => fingerprintText(request.method, request.url, request.body, (text) => createHash('sha256').update(text).digest('hex')),
  };
}

/** The method and path a key is claimed for, as the fingerprint counts them (a trailing slash or not). */
const targetOf = (request: FastifyRequest) => `${request.method} ${normalPath(request.url)}`;

const normalPath = (url: string) => url.replace(/\/(?=\?|$)/, '');

/**
 * Whether this signed-in write names a key its user already used on this very route (answered or
 * still running), read before the body: a route's guards that refuse it then wait for the key's
 * answer (`guardedBy` in auth.ts), so a faithful retry is answered as the first request was even
 * if what the guards read has changed since (a log signed, a subtask reassigned after a photo went
 * in). A key used on another route opens nothing: the guards' refusal stands, before the body.
 */
export async function keyUsedBefore(db: DbOrTx, request: FastifyRequest): Promise<boolean> {
  const key = request.headers['idempotency-key'];
  if (!takesKey(request) || typeof key !== 'string' || !VALID_KEY.test(key)) return false;
  const rows = await db
    .select({ key: idempotencyKeys.key })
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.companyId, request.user.companyId),
        eq(idempotencyKeys.userId, request.user.id),
        eq(idempotencyKeys.key, key),
        or(eq(idempotencyKeys.target, targetOf(request)), isNull(idempotencyKeys.target)),
      ),
    );
  return rows.length > 0;
}

/** A stored answer for this request, or 422 for another request's key, or 409 for one in progress. */
function judged(stored: StoredAnswer, owner: Owner): StoredAnswer {
  if (!sameRequest(stored, owner)) throw new AppError(422, KEY_REUSED);
  if (stored.statusCode === null) throw new KeyInProgressError();
  return stored;
}

export function sendReplay(reply: FastifyReply, stored: StoredAnswer) {
  reply.code(stored.statusCode!).header(REPLAYED_HEADER, 'true');
  if (stored.contentType) reply.header('content-type', stored.contentType);
  if (stored.location) reply.header('location', stored.location);
  return reply.send(stored.body ?? undefined);
}

function findAnswer(db: DbOrTx, owner: Owner): Promise<StoredAnswer | undefined> {
  return db
    .select({
      fingerprint: idempotencyKeys.fingerprint,
      statusCode: idempotencyKeys.statusCode,
      contentType: idempotencyKeys.contentType,
      location: idempotencyKeys.location,
      body: idempotencyKeys.body,
      stale: sql<boolean>`${idempotencyKeys.createdAt} < now() - ${`${STALE_CLAIM_MS} milliseconds`}::interval`,
    })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.companyId, owner.companyId), eq(idempotencyKeys.userId, owner.userId), eq(idempotencyKeys.key, owner.key)))
    .then((rows) => rows[0]);
}

/**
 * One keyed write: a transaction of its own, begun with the claim of its key, in which the route
 * runs (the services' own transactions become savepoints in it) and which commits with the answer.
 */
class KeyedWrite {
  private transaction: Promise<Tx> | undefined;
  private finish: ((commit: boolean) => Promise<void>) | undefined;
  private claim: number | undefined;
  /** What the write asked to be done once it commits (settleChanges, afterCommit on any of its databases). */
  private readonly afterCommit: AfterCommit[] = [];

  constructor(
    private readonly root: Db,
    private readonly owner: Owner,
    private readonly crashAt: CrashPoint | undefined,
    private readonly waitMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Begins the transaction and claims the key in it; a committed duplicate's answer is thrown as a ReplayedAnswer. */
  begin(): Promise<Tx> {
    this.transaction ??= this.open();
    return this.transaction;
  }

  /**
   * The database of a request whose transaction begins with its service's: the pool until then,
   * that transaction after (the service's own becomes a savepoint in it).
   */
  lazyDb(ctx: { db: Db }): Db {
    let current: DbOrTx = this.root;
    const view = new Proxy(this.root, {
      get: (target, property) => {
        if (property === 'transaction') {
          return async (work: (tx: Tx) => Promise<unknown>) => {
            const tx = await this.begin();
            current = tx;
            ctx.db = tx as unknown as Db;
            return tx.transaction(work);
          };
        }
        const value: unknown = Reflect.get(current, property);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value;
      },
    });
    registerDatabaseView(view, () => current);
    this.afterCommit.push(deferUntilCommit(view));
    return view;
  }

  private open(): Promise<Tx> {
    return new Promise<Tx>((resolve, reject) => {
      let decide: (commit: boolean) => void = () => {};
      const decided = new Promise<boolean>((settle) => (decide = settle));
      let begun = false;
      const done = this.root.transaction(async (tx) => {
        begun = true;
        try {
          this.claim = await this.claimIn(tx);
        } catch (error) {
          // Rolled back as it is thrown: nothing is left to end.
          this.finish = undefined;
          reject(error);
          throw error;
        }
        this.afterCommit.push(deferUntilCommit(tx));
        resolve(tx);
        if (!(await decided)) tx.rollback();
      });
      this.finish = async (commit) => {
        decide(commit);
        await done.catch((error: unknown) => {
          if (commit) throw error;
        });
      };
      done.catch((error: unknown) => {
        if (!begun) reject(error);
      });
    });
  }

  /**
   * Inserts the claim, forgetting the user's oldest keys past KEYS_PER_USER in the same statement
   * (rows another writer holds are skipped, never waited for). A duplicate still in its own
   * transaction makes the insert wait for its end (PostgreSQL; the embedded database has one
   * connection, so the duplicate has ended before this began): then its answer is replayed. That
   * wait is bounded by `lock_timeout`, set for this statement alone: `bounded` sets it before the
   * row is inserted and RETURNING puts the transaction's own back, so the route's locks wait as
   * they always did; when no row came back (a conflict), it is reset before claiming again. Past
   * it the duplicate is a 409 with Retry-After.
   */
  private async claimIn(tx: Tx): Promise<number> {
    const { companyId, userId, key, fingerprint, target } = this.owner;
    for (;;) {
      let result;
      try {
        result = await tx.execute(sql`
          with forgotten as (
            delete from ${idempotencyKeys} where id in (
              select id from ${idempotencyKeys} where company_id = ${companyId} and user_id = ${userId}
              order by id desc offset ${KEYS_PER_USER - 1} for update skip locked
            )
          ),
          bounded as materialized (select current_setting('lock_timeout') as previous, set_config('lock_timeout', ${String(this.waitMs)}, true))
          insert into ${idempotencyKeys} (company_id, user_id, key, fingerprint, target) select ${companyId}, ${userId}, ${key}, ${fingerprint}, ${target} from bounded
          on conflict do nothing returning id, set_config('lock_timeout', (select previous from bounded), true)`);
      } catch (error) {
        if (isLockTimeout(error)) throw new KeyInProgressError();
        throw error;
      }
      const [claimed] = (result as unknown as { rows: { id: string }[] }).rows;
      if (claimed) return Number(claimed.id);
      // No row, so RETURNING did not put the transaction's own lock_timeout back: before claiming
      // again (and the route's work after it), it must not keep the key's limit.
      const claimAgain = () => tx.execute(sql`set local lock_timeout to default`);
      const stored = await findAnswer(tx, this.owner);
      // Forgotten in between: claim it afresh.
      if (!stored) {
        await claimAgain();
        continue;
      }
      if (stored.statusCode === null && stored.stale && sameRequest(stored, this.owner)) {
        await tx.delete(idempotencyKeys).where(and(eq(idempotencyKeys.companyId, companyId), eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
        await claimAgain();
        continue;
      }
      throw new ReplayedAnswer(judged(stored, this.owner));
    }
  }

  /**
   * A 2xx answer is stored with the write and both commit together. A refusal or failure acts on
   * nothing: the transaction is rolled back, claim and all, so a retry is judged afresh.
   */
  async end(reply: FastifyReply, payload: unknown): Promise<void> {
    const finish = this.finish;
    this.finish = undefined;
    const status = reply.statusCode;
    // An upload's transaction that never began (its service wrote nothing, or each statement on
    // its own): what it asked to do after its changes is due now.
    if (!finish && !this.transaction && status >= 200 && status < 300) return this.afterTheCommit();
    if (!finish) return;
    const tx = await this.transaction!;
    if (status < 200 || status >= 300) return finish(false);
    try {
      await this.keepAnswer(tx, reply, payload);
    } catch (error) {
      await finish(false);
      throw error;
    }
    if (this.crashAt === 'before-commit') process.kill(process.pid, 'SIGKILL');
    await finish(true);
    if (this.crashAt === 'after-commit') process.kill(process.pid, 'SIGKILL');
    await this.afterTheCommit();
  }

  /** Settles the changes and runs the work the write asked for once it committed (`settleChanges`, `afterCommit`). */
  private async afterTheCommit(): Promise<void> {
    if (this.afterCommit.some((later) => later.settleWanted)) await settleChanges(this.root);
    for (const work of this.afterCommit.flatMap((later) => later.work)) {
      // Committed: the answer stands, and what fails now is told in the log, not to the person.
      await work().catch((error: unknown) => this.log.error({ err: error }, 'work after a keyed write failed'));
    }
  }

  private async keepAnswer(tx: Tx, reply: FastifyReply, payload: unknown): Promise<void> {
    const storable = payload === undefined || payload === null || typeof payload === 'string';
    if (storable) {
      const contentType = reply.getHeader('content-type');
      const location = reply.getHeader('location');
      await tx
        .update(idempotencyKeys)
        .set({
          statusCode: reply.statusCode,
          contentType: typeof contentType === 'string' ? contentType : null,
          location: typeof location === 'string' ? location : null,
          body: (payload as string | null | undefined) ?? null,
        })
        .where(eq(idempotencyKeys.id, this.claim!));
    } else {
      // An answer that is not text (a stream) cannot be sent again: the write is kept, its key not.
      await tx.delete(idempotencyKeys).where(eq(idempotencyKeys.id, this.claim!));
    }
  }

  /** Rolls back a transaction no answer will end. */
  async abandon(): Promise<void> {
    const finish = this.finish;
    this.finish = undefined;
    await finish?.(false);
  }
}

/** The key request fingerprints are made with, derived from the server's secret (the same on every instance). */
export function fingerprintKey(serverSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', serverSecret, 'siteboard', 'idempotency fingerprints', 32));
}

/**
 * What a key is bound to, what makes two requests "the same": the method, the path (a trailing
 * slash or not) and the body's content; a JSON body counts by its content (keys sorted), so a
 * client that serialises it again in another order still matches. Kept a week with the key, so it
 * is an HMAC under the server's secret: a body may hold a password (one an admin sets, one's own
 * change), which a plain hash in a copy of the database would give away to a guess per try.
 */
export function requestFingerprint(key: Buffer, method: string, url: string, body: unknown): string {
  return fingerprintText(method, url, body, (text) => createHmac('sha256', key).update(text).digest('hex'));
}

/** What a fingerprint is made of, hashed by `hash`. */
function fingerprintText(method: string, url: string, body: unknown, hash: (text: string) => string): string {
  return hash(`${method} ${normalPath(url)}\n${bodyFingerprint(body)}`);
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

/** Deletes keys older than KEEP_HOURS, a bounded batch per statement; answers how many went. */
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

/** Any instance may sweep: the deletes do not collide. */
function startSweeper(db: Db, log: FastifyBaseLogger, metrics: Metrics, intervalMs: number) {
  return startSweep({
    name: 'idempotency key sweep',
    intervalMs,
    log,
    metrics,
    run: async () => {
      const deleted = await sweepIdempotencyKeys(db, new Date());
      if (deleted > 0) log.info({ deleted }, 'idempotency key sweep');
    },
  });
}
