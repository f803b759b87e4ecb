import { randomUUID } from 'node:crypto';
import { and, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jobs } from '../schema/jobs';
import { CHANGES_CHANNEL, type ChangeFeed } from './database/change-feed';
import { isDataException } from './database/db-errors';
import type { Db, DbOrTx } from './database/types';

/** The change feed's kind for "a job is waiting in this queue": `j:<queue>`. */
const JOB_KIND = 'j';
/** How often each instance looks for due work it was not told about (retries, a dead instance's jobs). */
const DEFAULT_POLL_MS = 5_000;
/** Finished jobs are kept this long for admins and metrics, then deleted. */
const KEEP_DONE_DAYS = 7;
const KEEP_FAILED_DAYS = 30;
/** Rows one clean-up statement deletes at most. */
const CLEAN_BATCH = 1_000;
/** How long one run may take unless its queue says otherwise; past it the run is given up and the job tried again. */
const DEFAULT_TIME_LIMIT_SECONDS = 30 * 60;
/** How long a run given up at its time limit has to end before the runner stops waiting for it. */
const GIVE_UP_GRACE_MS = 10_000;
/**
 * How long stopping waits for the runs in progress (a mail half sent) before it queues them again
 * for the next instance: within the server's shutdown budget (drain.ts, 25 s) with room for the rest.
 */
const STOP_WAIT_MS = 15_000;
/**
 * How many runs past its last attempt a job whose work was done but whose `done` could not be
 * written gets to complete it; then it ends failed, saying so, rather than rerunning for ever.
 */
const COMPLETION_ROUNDS = 3;
/** The first and the longest wait before a run whose work was done tries again to record it, every write having been refused. */
const SETTLE_RETRY_MS = 250;
const SETTLE_RETRY_MAX_MS = 30_000;

export interface Job<Payload = unknown> {
  id: number;
  queue: string;
  companyId: number | null;
  payload: Payload;
  /** This run's number: 1 the first time. */
  attempt: number;
  maxAttempts: number;
  /** Pushes this run's lease further; the runner does it every third of the lease while the run goes on. */
  extendLease(seconds?: number): Promise<void>;
  /**
   * Aborted when the instance stops (`stopping`: the job is queued again at once for the next
   * instance) or when the run passes its queue's time limit (a failed attempt: retried with
   * back-off, failed for good on the last).
   */
  signal: AbortSignal;
  /** Whether the instance is stopping (a run that gives up then is not a failure). */
  readonly stopping: boolean;
  /** What an earlier run of this job recorded it had done (`recordCheckpoint`), or null. */
  checkpoint: unknown;
  /**
   * Records at once, in a statement of its own, what this run did outside the database, so a
   * later run of the job (after a crash, a failed completion, a run given up) does not do it again.
   * Written whoever holds the job by then: it says what happened in the world, not who owns the run.
   * Never throws: a checkpoint the database refuses is written by the runner with the job's
   * completion or requeue, or else kept by this instance for the job's next run here.
   */
  recordCheckpoint(value: unknown): Promise<void>;
}

export interface JobDefinition<Payload> {
  queue: string;
  handle(job: Job<Payload>): Promise<void>;
  /** Runs of this queue at once on one instance (CPU-heavy work: 1). */
  concurrency?: number;
  /**
   * How long a run's instance may go silent before another takes the job over as abandoned (its
   * process died): renewed every third of it while the run goes on, so a run may last longer.
   */
  leaseSeconds?: number;
  /** How long one run may last at most (a hung rendering, an SMTP server that answers a byte a minute); 30 minutes unless set. */
  timeLimitSeconds?: number;
  /** Seconds to wait before the next attempt after `attempt` failed; exponential with jitter by default. */
  backoffSeconds?(attempt: number): number;
  /**
   * A condition on the job's row saying its work was done whatever its status (a mail's acceptance
   * by the SMTP server recorded, record 114): a job that failed so is not a failure anyone must act
   * on, so `siteboard_jobs_failed` leaves it out, as the queue's own list of failures does (`failedForGood`).
   */
  workDone?: SQL;
}

/**
 * The jobs that failed for good and are someone's to act on: `failed`, unless what the job recorded
 * says its work was done (`workDone`, its queue's). The failed-jobs gauge and a queue's list of
 * failures (the admins' mails given up) both read this one condition, so they count the same jobs.
 */
export function failedForGood(workDone?: SQL): SQL {
  return workDone ? sql`(${jobs.status} = 'failed' and not coalesce(${workDone}, false))` : sql`${jobs.status} = 'failed'`;
}

/** A failure that retrying cannot mend (an SMTP server's permanent refusal, a corrupt file): the job fails at once. */
export class PermanentJobError extends Error {}

export interface EnqueueOptions {
  companyId?: number | null;
  /** Not before this instant. */
  runAt?: Date;
  maxAttempts?: number;
  /** A second job with the same key is not created (answers the first one's id). */
  dedupeKey?: string;
}

/**
 * Writes a job in the caller's transaction (the outbox): it exists if and only if its cause
 * committed, and every instance hears of it at commit through the change feed.
 */
export async function enqueueJob(db: DbOrTx, queue: string, payload: unknown, options: EnqueueOptions = {}): Promise<number> {
  const runAt = options.runAt ? sql`${options.runAt.toISOString()}::timestamptz` : sql`now()`;
  const result = await db.execute<{ id: number }>(sql`
    with inserted as (
      insert into ${jobs} (queue, company_id, payload, run_at, max_attempts, dedupe_key)
      values (${queue}, ${options.companyId ?? null}, ${JSON.stringify(payload)}::jsonb, ${runAt}, ${options.maxAttempts ?? 8}, ${options.dedupeKey ?? null})
      on conflict (dedupe_key) do nothing
      returning id
    )
    select id::int as id, pg_notify(${CHANGES_CHANNEL}, ${`${JOB_KIND}:${queue}`})::text as announced from inserted
    union all
    select id::int, null::text from ${jobs} where dedupe_key = ${options.dedupeKey ?? null}::text and not exists (select 1 from inserted)
  `);
  const [row] = (result as unknown as { rows: { id: number }[] }).rows;
  return row!.id;
}

/** Several jobs of one queue in ONE statement (a fan-out's mails); those whose dedupe key exists are skipped. Answers how many were written. */
export async function enqueueJobs(db: DbOrTx, queue: string, items: { payload: unknown; companyId: number | null; dedupeKey?: string }[], options: { maxAttempts?: number } = {}): Promise<number> {
  if (items.length === 0) return 0;
  const json = JSON.stringify(items.map((item) => ({ company_id: item.companyId, payload: item.payload, dedupe_key: item.dedupeKey ?? null })));
  const result = await db.execute<{ written: number }>(sql`
    with inserted as (
      insert into ${jobs} (queue, company_id, payload, run_at, max_attempts, dedupe_key)
      select ${queue}, item.company_id, item.payload, now(), ${options.maxAttempts ?? 8}, item.dedupe_key
      from json_to_recordset(${json}::json) as item(company_id int, payload jsonb, dedupe_key text)
      on conflict (dedupe_key) do nothing
      returning id
    )
    select count(*)::int as written, case when count(*) > 0 then pg_notify(${CHANGES_CHANNEL}, ${`${JOB_KIND}:${queue}`})::text end as announced from inserted
  `);
  return (result as unknown as { rows: { written: number }[] }).rows[0]?.written ?? 0;
}

export interface QueueStats {
  queue: string;
  queued: number;
  running: number;
  failed: number;
  /** Queued jobs whose last attempt failed, waiting for their next (an SMTP server down shows here at once, hours before `failed`). */
  retrying: number;
  /** Seconds the oldest due, unclaimed job has waited; 0 when none waits. */
  oldestWaitSeconds: number;
}

export interface JobRunner {
  /** Adds a queue this instance works on; call before `start`. */
  define<Payload>(definition: JobDefinition<Payload>): void;
  start(): void;
  /** Stops claiming, and waits for the runs in progress to finish. */
  stop(): Promise<void>;
  /** Looks for due work now (tests; the feed and a timer do it otherwise). */
  poll(): void;
  /** Resolves once no job of these queues is due or running (tests). */
  idle(queues?: string[], timeoutMs?: number): Promise<void>;
  stats(): Promise<QueueStats[]>;
  /** How many checkpoints this instance keeps in memory because the database refused them (tests). */
  keptCheckpoints(): number;
}

type JobChanges = PgUpdateSetSource<typeof jobs>;

const rowsOf = <Row>(result: unknown): Row[] => (result as { rows: Row[] }).rows;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
/** A job given up for good, saying why. */
const failedWith = (reason: string) => ({ status: 'failed' as const, lastError: reason.slice(0, 2_000), finishedAt: sql`now()`, lockedUntil: null });

/**
 * Runs persistent jobs (decision record 042): each instance claims due jobs of the queues it knows
 * with `FOR UPDATE SKIP LOCKED`, so a job runs on one instance at a time; a run holds a lease, and a
 * job whose lease passed (its instance died) is claimed again. A failure is retried with back-off
 * until `max_attempts`, then recorded as failed with its reason. Work arrives through the change
 * feed (`j:<queue>`, sent on the commit of `enqueueJob`) and a poll every few seconds.
 */
export function createJobRunner(options: {
  db: Db;
  changes: ChangeFeed;
  log: FastifyBaseLogger;
  pollMs?: number;
  /** STOP_WAIT_MS and GIVE_UP_GRACE_MS unless set (tests shorten them). */
  stopWaitMs?: number;
  giveUpGraceMs?: number;
}): JobRunner {
  const { db, log } = options;
  const instance = randomUUID();
  const definitions = new Map<string, Required<Omit<JobDefinition<unknown>, 'backoffSeconds' | 'workDone'>> & Pick<JobDefinition<unknown>, 'backoffSeconds' | 'workDone'>>();
  const running = new Map<string, Set<Promise<void>>>();
  let started = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let polling: Promise<void> | undefined;
  let pollAgain = false;
  let stopFeed: (() => void) | undefined;
  let lastClean = 0;
  const stopped = new AbortController();
  /**
   * Checkpoints of runs here that neither the run nor its requeue could write (the database refusing
   * them): the job's next run here is given it and writes it. Forgotten once the job ended or is gone.
   */
  const remembered = new Map<number, { value: unknown }>();
  /** Jobs whose runs here did their work and are recording it: never claimed here meanwhile, even once their lease has run out. */
  const settling = new Set<number>();

  const backoff = (definition: JobDefinition<unknown>, attempt: number) =>
    definition.backoffSeconds?.(attempt) ?? Math.min(3_600, 2 ** Math.min(attempt, 12)) * (0.75 + Math.random() * 0.5);
  /** A job queued again after its back-off, saying why. */
  const queuedAgain = (definition: JobDefinition<unknown>, attempt: number, reason: string) =>
    ({ status: 'queued' as const, lastError: reason.slice(0, 2_000), lockedUntil: null, runAt: sql`now() + make_interval(secs => ${backoff(definition, attempt)})` });
  /** Writes what a run did outside the database on its job, whoever holds the job now. */
  const writeCheckpoint = (id: number, value: unknown) => db.update(jobs).set({ checkpoint: value }).where(eq(jobs.id, id));

  async function claim(queue: string, count: number, leaseSeconds: number) {
    const result = await db.execute(sql`
      with next as (
        select id from ${jobs}
        where queue = ${queue} and run_at <= now()
          and (status = 'queued' or (status = 'running' and locked_until < now() and attempts < max_attempts))
          ${settling.size > 0 ? sql`and id not in (${sql.join([...settling].map((id) => sql`${id}`), sql`, `)})` : sql``}
        order by run_at, id
        limit ${count}
        for update skip locked
      )
      update ${jobs} set status = 'running', attempts = attempts + 1, locked_by = ${instance},
        locked_until = now() + make_interval(secs => ${leaseSeconds})
      from next where ${jobs.id} = next.id
      returning ${jobs.id} as id, ${jobs.companyId} as "companyId", ${jobs.payload} as payload, ${jobs.attempts} as attempts, ${jobs.maxAttempts} as "maxAttempts", ${jobs.checkpoint} as checkpoint
    `);
    // bigint ids come back as text from a raw statement: numbers, as everywhere else.
    return rowsOf<{ id: number | string; companyId: number | null; payload: unknown; attempts: number; maxAttempts: number; checkpoint: unknown }>(result).map((row) => ({ ...row, id: Number(row.id) }));
  }

  /** The runs of dead instances that used up their attempts: never claimed again, so recorded as failed. */
  async function failAbandoned() {
    await db
      .update(jobs)
      .set({ status: 'failed', lastError: 'The job stopped with its instance on every attempt.', finishedAt: sql`now()`, lockedUntil: null })
      .where(and(eq(jobs.status, 'running'), lt(jobs.lockedUntil, sql`now()`), sql`${jobs.attempts} >= ${jobs.maxAttempts}`));
  }

  async function clean() {
    if (Date.now() - lastClean < 3_600_000) return;
    lastClean = Date.now();
    for (const [status, days] of [
      ['done', KEEP_DONE_DAYS],
      ['failed', KEEP_FAILED_DAYS],
    ] as const) {
      const old = db
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.status, status), lt(jobs.finishedAt, sql`now() - make_interval(days => ${days})`)))
        .limit(CLEAN_BATCH);
      await db.delete(jobs).where(inArray(jobs.id, old));
    }
  }

  /** Writes `values` to the job if this run still holds it; answers whether it did (false: another run has it now). */
  async function writeOwned(owned: SQL | undefined, values: JobChanges): Promise<boolean> {
    return (await db.update(jobs).set(values).where(owned).returning({ id: jobs.id })).length > 0;
  }

  /**
   * Records that a run's work was done (its handler returned), whatever its attempt (decision record
   * 114, 121): done, with the checkpoint the run could not write itself; else queued again with it
   * for a later run to complete (failed, saying the work was done, past the bound). A checkpoint
   * whose value the database cannot store (a data exception) is the only one given up: done without
   * it, saying so, on any attempt; else queued without it and kept here for the job's next run here. Every
   * other refusal (the database away, a lock or statement timeout) is tried again, the checkpoint
   * first on its own: this run keeps the job (no claim here takes it, its lease renewed while the
   * database lets it) until one is written or the instance stops. The job never ends in a state that
   * says its work was not done, and never goes to a run that does not know what this one did, while
   * this instance can help it.
   */
  async function settle(definition: JobDefinition<unknown>, row: Awaited<ReturnType<typeof claim>>[number], owned: SQL | undefined, unrecorded: { value: unknown } | undefined) {
    const done = { status: 'done', finishedAt: sql`now()`, lockedUntil: null, lastError: null } as const;
    const context = { jobId: row.id, queue: definition.queue };
    const bounded = row.attempts >= row.maxAttempts + COMPLETION_ROUNDS;
    const again = (error: unknown, note = '') =>
      bounded
        ? failedWith(`Its work was done, but its completion could not be recorded in ${row.attempts} runs: ${messageOf(error)}${note}`)
        : queuedAgain(definition, row.attempts, `Its work was done; a later run records its completion: ${messageOf(error)}`);
    settling.add(row.id);
    try {
      for (let wait = SETTLE_RETRY_MS; ; wait = Math.min(wait * 2, SETTLE_RETRY_MAX_MS)) {
        let refusal: unknown;
        if (unrecorded) {
          // Written on its own first: whichever run has the job next (here or elsewhere) knows what this one did.
          try {
            await writeCheckpoint(row.id, unrecorded.value);
            unrecorded = undefined;
          } catch (error) {
            refusal = error;
          }
        }
        const checkpoint = unrecorded ? { checkpoint: unrecorded.value } : {};
        const outcomes: { values: (error: unknown) => JobChanges; then?: () => void }[] = [{ values: () => ({ ...done, ...checkpoint }) }, { values: (error) => ({ ...again(error), ...checkpoint }) }];
        if (unrecorded && isDataException(refusal)) {
          // The value itself cannot be stored: done without it, saying so (its work was done; no later
          // run needs it); else queued without it, this instance keeping it for the job's next run here.
          const kept = ` Its checkpoint, not recorded: ${JSON.stringify(unrecorded.value)}.`;
          const value = unrecorded;
          const valueRefusal = refusal;
          outcomes.splice(1, 0, { values: () => ({ ...done, lastError: `Done; its checkpoint could not be recorded: ${messageOf(valueRefusal)}`.slice(0, 2_000) }) });
          outcomes.push({ values: (error) => again(error, kept), then: () => void (!bounded && remembered.set(row.id, value)) });
        }
        for (const outcome of outcomes) {
          try {
            const values = outcome.values(refusal);
            if (await writeOwned(owned, values)) outcome.then?.();
            if (refusal) log.warn({ err: refusal, ...context, status: values.status }, 'a job whose work was done could not be marked done');
            return;
          } catch (error) {
            refusal = error;
          }
        }
        if (stopped.signal.aborted) {
          log.error({ err: refusal, ...context }, 'a job whose work was done could not be recorded before the instance stopped; its lease runs out');
          return;
        }
        log.error({ err: refusal, ...context }, 'no outcome of a job whose work was done could be recorded; trying again');
        // Woken early by stopping; the listener goes with the wait, however long the refusals last.
        await new Promise<void>((resolve) => {
          const wake = () => (clearTimeout(timeout), resolve());
          const timeout = setTimeout(() => (stopped.signal.removeEventListener('abort', wake), resolve()), wait);
          stopped.signal.addEventListener('abort', wake, { once: true });
        });
      }
    } finally {
      settling.delete(row.id);
    }
  }

  async function run(definition: JobDefinition<unknown> & { leaseSeconds: number; timeLimitSeconds: number }, row: Awaited<ReturnType<typeof claim>>[number]) {
    // Still running (a done that committed though its answer was lost is never overwritten) and still this run's.
    const owned = and(eq(jobs.id, row.id), eq(jobs.status, 'running'), eq(jobs.lockedBy, instance), eq(jobs.attempts, row.attempts));
    const overdue = new AbortController();
    // A checkpoint of an earlier run here that could not be written anywhere: this run writes it.
    const earlier = row.checkpoint == null ? remembered.get(row.id) : undefined;
    remembered.delete(row.id);
    // A checkpoint whose write failed: the job's completion (or requeue) writes it.
    let unrecorded: { value: unknown } | undefined = earlier;
    const job: Job = {
      id: row.id,
      queue: definition.queue,
      companyId: row.companyId,
      payload: row.payload,
      attempt: row.attempts,
      maxAttempts: row.maxAttempts,
      async extendLease(seconds = definition.leaseSeconds) {
        await db.update(jobs).set({ lockedUntil: sql`now() + make_interval(secs => ${seconds})` }).where(owned);
      },
      signal: AbortSignal.any([stopped.signal, overdue.signal]),
      get stopping() {
        return stopped.signal.aborted;
      },
      checkpoint: row.checkpoint ?? earlier?.value ?? null,
      async recordCheckpoint(value) {
        try {
          await writeCheckpoint(row.id, value);
          unrecorded = undefined;
        } catch (error) {
          unrecorded = { value };
          log.warn({ err: error, jobId: row.id, queue: definition.queue }, 'a checkpoint could not be recorded; the job\'s completion records it');
        }
      },
    };
    // The lease says this instance is alive and still on it: a slow run is never claimed twice.
    const renew = setInterval(() => void job.extendLease().catch(() => {}), (definition.leaseSeconds / 3) * 1000).unref();
    let giveUp: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      const message = `The job ran longer than its limit of ${definition.timeLimitSeconds} s.`;
      giveUp = setTimeout(() => {
        overdue.abort(new Error(message));
        // A run that does not end when told (a hung library call) is left behind; its job goes on.
        giveUp = setTimeout(() => reject(new Error(message)), options.giveUpGraceMs ?? GIVE_UP_GRACE_MS);
      }, definition.timeLimitSeconds * 1000);
    });
    try {
      try {
        await Promise.race([definition.handle(job), limit]);
      } catch (error) {
        // What it did and could not record stays here for its next run on this instance.
        if (unrecorded) remembered.set(row.id, unrecorded);
        const message = messageOf(error);
        if (stopped.signal.aborted) {
          // Given up because this instance stops: not a failure, the next instance runs it again.
          await db.update(jobs).set({ status: 'queued', lockedUntil: null, attempts: sql`${jobs.attempts} - 1`, runAt: sql`now()` }).where(owned);
          return;
        }
        const permanent = error instanceof PermanentJobError || row.attempts >= row.maxAttempts;
        if (permanent) log.error({ err: error, jobId: row.id, queue: definition.queue }, 'job failed for good');
        else log.warn({ err: error, jobId: row.id, queue: definition.queue, attempt: row.attempts }, 'job failed; it will be retried');
        await db
          .update(jobs)
          .set(permanent ? failedWith(message) : queuedAgain(definition, row.attempts, message))
          .where(owned);
        return;
      } finally {
        clearTimeout(giveUp);
      }
      await settle(definition, row, owned, unrecorded);
    } finally {
      clearInterval(renew);
    }
  }

  /** Forgets checkpoints kept for jobs that ended, or went, elsewhere: this instance will not run them again. */
  async function forgetFinished() {
    if (remembered.size === 0) return;
    const ids = [...remembered.keys()];
    const open = await db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(inArray(jobs.id, ids), inArray(jobs.status, ['queued', 'running'])));
    const stillOpen = new Set(open.map((row) => row.id));
    for (const id of ids) if (!stillOpen.has(id)) remembered.delete(id);
  }

  async function pollOnce() {
    await failAbandoned();
    await forgetFinished();
    for (const definition of definitions.values()) {
      if (stopping) return;
      const inFlight = running.get(definition.queue)!;
      const free = definition.concurrency - inFlight.size;
      if (free <= 0) continue;
      for (const row of await claim(definition.queue, free, definition.leaseSeconds)) {
        const done: Promise<void> = run(definition, row)
          .catch((error: unknown) => log.error({ err: error, jobId: row.id }, 'recording a job run failed'))
          .finally(() => {
            inFlight.delete(done);
            // A slot is free: there may be more waiting.
            poll();
          });
        inFlight.add(done);
      }
    }
    await clean();
  }

  function poll() {
    if (!started || stopping) return;
    if (polling) {
      pollAgain = true;
      return;
    }
    polling = pollOnce()
      .catch((error: unknown) => log.error({ err: error }, 'looking for due jobs failed'))
      .finally(() => {
        polling = undefined;
        if (pollAgain) {
          pollAgain = false;
          poll();
        }
      });
  }

  return {
    define(definition) {
      if (started) throw new Error(`Queue ${definition.queue} defined after the job runner started.`);
      definitions.set(definition.queue, { concurrency: 1, leaseSeconds: 300, timeLimitSeconds: DEFAULT_TIME_LIMIT_SECONDS, ...definition } as never);
      running.set(definition.queue, new Set());
    },
    start() {
      if (started || definitions.size === 0) return;
      started = true;
      stopFeed = options.changes.on(JOB_KIND, (queue) => {
        if (definitions.has(queue)) poll();
      });
      timer = setInterval(poll, options.pollMs ?? DEFAULT_POLL_MS);
      timer.unref();
      poll();
    },
    async stop() {
      stopping = true;
      stopped.abort(new Error('The server is stopping.'));
      clearInterval(timer);
      stopFeed?.();
      await polling;
      const runs = [...running.values()].flatMap((set) => [...set]);
      let wait: NodeJS.Timeout | undefined;
      const ended = await Promise.race([Promise.all(runs).then(() => true), new Promise<false>((resolve) => (wait = setTimeout(() => resolve(false), options.stopWaitMs ?? STOP_WAIT_MS)))]);
      clearTimeout(wait);
      if (ended) return;
      // Still running (an SMTP server that takes its time): the next instance runs them again. A
      // mail this one was sending may then go twice: at least once, never lost (decision record 075).
      const released = await db
        .update(jobs)
        .set({ status: 'queued', lockedUntil: null, attempts: sql`${jobs.attempts} - 1`, runAt: sql`now()` })
        .where(and(eq(jobs.lockedBy, instance), eq(jobs.status, 'running')))
        .returning({ id: jobs.id });
      log.warn({ jobIds: released.map((row) => row.id) }, 'jobs still running at shutdown were queued again for the next instance');
    },
    poll,
    async idle(queues = [...definitions.keys()], timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const [row] = await db
          .select({ waiting: sql<number>`count(*)::int` })
          .from(jobs)
          .where(and(inArray(jobs.queue, queues), sql`(${jobs.status} = 'running' or (${jobs.status} = 'queued' and ${jobs.runAt} <= now()))`));
        const busy = [...running.values()].some((set) => set.size > 0);
        if (!row?.waiting && !busy) return;
        if (Date.now() > deadline) throw new Error(`Jobs of ${queues.join(', ')} still due or running after ${timeoutMs} ms.`);
        poll();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    keptCheckpoints: () => remembered.size,
    async stats() {
      const withWorkDone = [...definitions.values()].filter((definition) => definition.workDone !== undefined);
      const failed =
        withWorkDone.length === 0
          ? failedForGood()
          : sql`case ${jobs.queue} ${sql.join(
              withWorkDone.map((definition) => sql`when ${definition.queue} then ${failedForGood(definition.workDone)}`),
              sql` `,
            )} else ${failedForGood()} end`;
      const result = await db.execute(sql`
        select queue,
          count(*) filter (where status = 'queued')::int as queued,
          count(*) filter (where status = 'running')::int as running,
          count(*) filter (where ${failed})::int as failed,
          count(*) filter (where status = 'queued' and last_error is not null)::int as retrying,
          coalesce(extract(epoch from now() - min(run_at) filter (where status = 'queued' and run_at <= now())), 0)::float8 as "oldestWaitSeconds"
        from ${jobs} where status in ('queued', 'running', 'failed') group by queue order by queue
      `);
      // Every queue this instance works on is named, at zero when it holds no job: a series that
      // appears only with the first job cannot be alerted on (nor graphed from zero) before it.
      const rows = new Map(rowsOf<QueueStats>(result).map((row) => [row.queue, row]));
      for (const queue of definitions.keys()) if (!rows.has(queue)) rows.set(queue, { queue, queued: 0, running: 0, failed: 0, retrying: 0, oldestWaitSeconds: 0 });
      return [...rows.values()].sort((a, b) => a.queue.localeCompare(b.queue));
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The persistent job runner: features `define` their queues when registered; it starts when the app is ready. */
    jobs: JobRunner;
  }
}

/**
 * The queues' depth, age and failures as Prometheus gauges, by queue (the e-mail outbox is one):
 * one statement per scrape, shared by the five gauges.
 */
function observeQueues(app: FastifyInstance, runner: JobRunner) {
  // The gauges of one scrape are collected together: they share the statement in flight.
  let pending: Promise<QueueStats[]> | undefined;
  const current = () => (pending ??= runner.stats().finally(() => (pending = undefined)));
  const gauges: [name: string, help: string, value: (stats: QueueStats) => number][] = [
    ['siteboard_jobs_queued', 'Jobs waiting to run (due or not yet), by queue.', (stats) => stats.queued],
    ['siteboard_jobs_running', 'Jobs being run by some instance, by queue.', (stats) => stats.running],
    ['siteboard_jobs_failed', 'Jobs that failed for good and are kept for admins (30 days), by queue.', (stats) => stats.failed],
    ['siteboard_jobs_retrying', 'Jobs whose last attempt failed, waiting to be tried again (a mail server down shows here first), by queue.', (stats) => stats.retrying],
    ['siteboard_jobs_oldest_wait_seconds', 'How long the oldest due, unclaimed job has waited, by queue.', (stats) => stats.oldestWaitSeconds],
  ];
  for (const [name, help, value] of gauges) {
    app.metrics.observe({ type: 'gauge', name, help, labelNames: ['queue'], read: async () => (await current()).map((stats) => ({ labels: { queue: stats.queue }, value: value(stats) })) });
  }
}

/** `app.jobs`: defined queues start running once the app is ready, and stop (runs in progress finish) when it closes. */
export const jobsPlugin = fp(
  async (app: FastifyInstance, options: { pollMs?: number }) => {
    const runner = createJobRunner({ db: app.db, changes: app.database.changes, log: app.log, pollMs: options.pollMs });
    app.decorate('jobs', runner);
    if (app.hasDecorator('metrics')) observeQueues(app, runner);
    app.addHook('onReady', async () => runner.start());
    app.addHook('preClose', async () => runner.stop());
  },
  { name: 'jobs', dependencies: ['db'] },
);
