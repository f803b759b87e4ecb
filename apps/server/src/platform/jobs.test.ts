import Fastify from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jobs } from '../schema/jobs';
import { createTestDatabase, isPostgresReachable, openAnotherConnection, type TestDatabase } from '../test/build-app';
import type { Database } from './database/client';
import { createJobRunner, enqueueJob, PermanentJobError, type Job, type JobDefinition, type JobRunner } from './jobs';

const log = Fastify({ logger: false }).log;

function runnerOn(database: Database, definitions: JobDefinition<never>[], options: { stopWaitMs?: number; giveUpGraceMs?: number } = {}): JobRunner {
  const runner = createJobRunner({ db: database.db, changes: database.changes, log, pollMs: 50, ...options });
  for (const definition of definitions) runner.define(definition as JobDefinition<unknown>);
  runner.start();
  return runner;
}

async function statusOf(database: Database, id: number) {
  const [row] = await database.db.select({ status: jobs.status, attempts: jobs.attempts, lastError: jobs.lastError }).from(jobs).where(eq(jobs.id, id));
  return row;
}

/**
 * A job's work as the mail handler does it: skipped when the job's checkpoint says it was done, else
 * done (counted in `times`) and recorded as `value`.
 */
function doneOnce(value: unknown = { sent: true }) {
  const work = {
    times: 0,
    handle: async (job: Job) => {
      if (job.checkpoint) return;
      work.times++;
      await job.recordCheckpoint(value);
    },
  };
  return work;
}

for (const kind of ['pglite', 'postgres'] as const) {
  describe(`persistent jobs [${kind}]`, async () => {
    const skip = kind === 'postgres' && !(await isPostgresReachable());
    let database: TestDatabase;
    const runners: JobRunner[] = [];
    const start = (...definitions: JobDefinition<never>[]) => startWith({}, ...definitions);
    const startWith = (options: Parameters<typeof runnerOn>[2], ...definitions: JobDefinition<never>[]) => {
      const runner = runnerOn(database, definitions, options);
      runners.push(runner);
      return runner;
    };
    /** A trigger that refuses the updates of a job for which `condition` holds (a database away for that write); answers its removal. */
    /** `refusal`: what the database says; by default that it went away (a moment's refusal), a data exception (`22023`) when the value itself is refused. */
    const refuseUpdates = async (name: string, condition: string, refusal = `'the database went away'`) => {
      await database.db.execute(
        sql.raw(`
          create or replace function ${name}() returns trigger language plpgsql as $$
          begin
            if ${condition} then raise exception ${refusal}; end if;
            return new;
          end $$;
          drop trigger if exists ${name} on jobs;
          create trigger ${name} before update on jobs for each row execute function ${name}();
        `),
      );
      return async () => void (await database.db.execute(sql.raw(`drop trigger ${name} on jobs; drop function ${name}();`)));
    };
    beforeAll(async () => {
      if (!skip) database = await createTestDatabase(kind);
    });
    afterAll(async () => {
      await Promise.all(runners.map((runner) => runner.stop()));
      await database?.drop();
    });
    if (skip) return void it.skip('PostgreSQL unreachable');

    it('runs a job once when its cause commits, and never when it rolls back', async () => {
      const ran: number[] = [];
      const runner = start({ queue: 'commit-test', handle: async (job: Job<{ n: number }>) => void ran.push(job.payload.n) });

      await database.db.transaction(async (tx) => {
        await enqueueJob(tx, 'commit-test', { n: 1 });
      });
      await database.db
        .transaction(async (tx) => {
          await enqueueJob(tx, 'commit-test', { n: 2 });
          throw new Error('the cause failed');
        })
        .catch(() => {});
      await runner.idle(['commit-test']);

      expect(ran).toEqual([1]);
    });

    it('retries a failing job with back-off until it succeeds, and records a permanent failure with its reason', async () => {
      let calls = 0;
      const runner = start(
        {
          queue: 'flaky',
          backoffSeconds: () => 0,
          handle: async () => {
            calls++;
            if (calls < 3) throw new Error('SMTP server not answering');
          },
        },
        { queue: 'refused', handle: async () => Promise.reject(new PermanentJobError('550 mailbox unavailable')) },
      );
      const flaky = await enqueueJob(database.db, 'flaky', {});
      const refused = await enqueueJob(database.db, 'refused', {});
      await runner.idle(['flaky', 'refused']);

      expect(await statusOf(database, flaky)).toEqual({ status: 'done', attempts: 3, lastError: null });
      expect(await statusOf(database, refused)).toEqual({ status: 'failed', attempts: 1, lastError: '550 mailbox unavailable' });
      expect(await runner.stats()).toEqual(expect.arrayContaining([expect.objectContaining({ queue: 'refused', failed: 1, queued: 0 })]));
    });

    it('counts a job whose attempt failed as retrying while it waits for the next', async () => {
      const runner = start({ queue: 'mail-down', backoffSeconds: () => 3_600, handle: async () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:25')) });
      const id = await enqueueJob(database.db, 'mail-down', {});
      await vi.waitFor(async () => expect(await statusOf(database, id)).toEqual({ status: 'queued', attempts: 1, lastError: 'connect ECONNREFUSED 127.0.0.1:25' }));

      expect(await runner.stats()).toEqual(expect.arrayContaining([expect.objectContaining({ queue: 'mail-down', queued: 1, retrying: 1, failed: 0 })]));
    });

    it('gives up after the last attempt', async () => {
      const runner = start({ queue: 'hopeless', backoffSeconds: () => 0, handle: async () => Promise.reject(new Error('still down')) });
      const id = await enqueueJob(database.db, 'hopeless', {}, { maxAttempts: 2 });
      await runner.idle(['hopeless']);

      expect(await statusOf(database, id)).toEqual({ status: 'failed', attempts: 2, lastError: 'still down' });
    });

    it('ends failed, saying its work was done, a job whose completion can never be recorded', async () => {
      // Every `done` of this queue is refused (the database refusing that one write); queuing it again is not.
      const allow = await refuseUpdates('refuse_done', `new.queue = 'unfinishable' and new.status = 'done'`);
      let runs = 0;
      const runner = start({ queue: 'unfinishable', backoffSeconds: () => 0, handle: async () => void runs++ });
      const id = await enqueueJob(database.db, 'unfinishable', {}, { maxAttempts: 2 });
      try {
        await runner.idle(['unfinishable'], 10_000);
      } finally {
        await allow();
      }

      // Its last attempt and three more to complete it, then no more runs of its work.
      expect(runs).toBe(5);
      expect(await statusOf(database, id)).toEqual({
        status: 'failed',
        attempts: 5,
        lastError: expect.stringMatching(/^Its work was done, but its completion could not be recorded in 5 runs: /),
      });
    });

    it('keeps a job whose work was done while the database refuses every record of it, past its lease, and completes it when it takes one', async () => {
      // The database refuses this queue's `done` and its requeue while the row is there (an outage of those writes); the lease's renewal goes through.
      await database.db.execute(sql.raw(`create table refusing (queue text primary key); insert into refusing values ('unsettled');`));
      const allow = await refuseUpdates('refuse_settling', `new.status in ('done', 'queued') and exists (select 1 from refusing where queue = new.queue)`);
      const work = doneOnce({ done: true });
      const runner = start({
        queue: 'unsettled',
        leaseSeconds: 2,
        backoffSeconds: () => 0,
        handle: work.handle,
      });
      const id = await enqueueJob(database.db, 'unsettled', {}, { maxAttempts: 1 });
      try {
        // Its work done and its lease as first claimed run out while every record of it is refused.
        await vi.waitFor(() => expect(work.times).toBe(1));
        const [claimed] = await database.db.select({ until: jobs.lockedUntil }).from(jobs).where(eq(jobs.id, id));
        await vi.waitFor(
          async () => {
            const [row] = await database.db.select({ past: sql<boolean>`clock_timestamp() > ${claimed!.until!.toISOString()}::timestamptz + interval '300 milliseconds'` }).from(jobs).where(eq(jobs.id, id));
            expect(row!.past).toBe(true);
          },
          { timeout: 10_000, interval: 100 },
        );
      } finally {
        await database.db.execute(sql.raw('delete from refusing;'));
      }
      await runner.idle(['unsettled']);
      await allow();
      await database.db.execute(sql.raw('drop table refusing;'));

      // Never "stopped with its instance": its work was done once, and it says so (completed by this run, or by
      // a later one it queued for that had the refusals lifted between its two writes).
      expect(work.times).toBe(1);
      expect(await statusOf(database, id)).toMatchObject({ status: 'done', lastError: null });
    });

    it('does not repeat work a run did when its checkpoint could not be recorded for a moment, and completes it in that run', async () => {
      // The database refuses the first four writes of a checkpoint or an outcome (a moment's outage): the
      // checkpoint's own, then the run's tries to record it, alone, done with it and queued with it.
      await database.db.execute(sql.raw('create sequence checkpoint_refusals'));
      const allow = await refuseUpdates('refuse_checkpoint', `new.queue = 'once-only' and (new.checkpoint is distinct from old.checkpoint or new.status <> 'running') and nextval('checkpoint_refusals') <= 4`);
      const work = doneOnce();
      const runner = start({
        queue: 'once-only',
        backoffSeconds: () => 0,
        handle: work.handle,
      });
      const id = await enqueueJob(database.db, 'once-only', {});
      try {
        await runner.idle(['once-only']);
      } finally {
        await allow();
        await database.db.execute(sql.raw('drop sequence checkpoint_refusals'));
      }

      expect(work.times).toBe(1);
      // Never queued without what it did: its own run wrote the checkpoint once the database took it, then completed it.
      const [row] = await database.db.select({ status: jobs.status, attempts: jobs.attempts, checkpoint: jobs.checkpoint }).from(jobs).where(eq(jobs.id, id));
      expect(row).toEqual({ status: 'done', attempts: 1, checkpoint: { sent: true } });
      expect(runner.keptCheckpoints()).toBe(0);
    });

    it('completes a job whose checkpoint the database cannot store at all, saying so, on any attempt', async () => {
      // The value itself is refused (a data exception), whatever the moment: asking again changes nothing.
      const allow = await refuseUpdates('refuse_value', `new.queue = 'unstorable' and new.checkpoint is distinct from old.checkpoint`, `using errcode = '22023', message = 'the value is refused'`);
      const work = doneOnce();
      const runner = start({
        queue: 'unstorable',
        backoffSeconds: () => 0,
        handle: work.handle,
      });
      const id = await enqueueJob(database.db, 'unstorable', {});
      try {
        await runner.idle(['unstorable']);
      } finally {
        await allow();
      }

      expect(work.times).toBe(1);
      expect(await statusOf(database, id)).toEqual({ status: 'done', attempts: 1, lastError: expect.stringMatching(/^Done; its checkpoint could not be recorded: /) });
      expect(runner.keptCheckpoints()).toBe(0);
    });

    it('forgets a checkpoint it kept once its job is gone (deleted with its company)', async () => {
      // The checkpoint's value is refused, and so is its `done`: queued again without it, the checkpoint kept here.
      const allow = await refuseUpdates(
        'refuse_kept',
        `new.queue = 'kept' and (new.checkpoint is distinct from old.checkpoint or new.status = 'done')`,
        `using errcode = '22023', message = 'the value is refused'`,
      );
      const runner = start({ queue: 'kept', backoffSeconds: () => 3_600, handle: async (job) => job.recordCheckpoint({ sent: true }) });
      const id = await enqueueJob(database.db, 'kept', {});
      try {
        await vi.waitFor(async () => expect(await statusOf(database, id)).toMatchObject({ status: 'queued', attempts: 1 }));
        expect(runner.keptCheckpoints()).toBe(1);
        await database.db.delete(jobs).where(eq(jobs.id, id));

        await vi.waitFor(() => expect(runner.keptCheckpoints()).toBe(0));
      } finally {
        await allow();
      }
    });

    it('never claims again itself a job whose work it did while the database refuses every record of it past its lease', async () => {
      // Everything of this queue is refused: the checkpoint, `done`, the requeue and the lease's renewal, until lifted.
      await database.db.execute(sql.raw(`create table refusing_all (queue text primary key); insert into refusing_all values ('outage');`));
      const allow = await refuseUpdates(
        'refuse_all',
        `exists (select 1 from refusing_all where queue = new.queue) and (new.status in ('done', 'queued') or new.checkpoint is distinct from old.checkpoint or (old.status = 'running' and new.status = 'running' and new.attempts = old.attempts))`,
      );
      const work = doneOnce();
      // Two slots: the second is free to claim the job again once its lease has run out.
      const runner = start({
        queue: 'outage',
        concurrency: 2,
        leaseSeconds: 2,
        backoffSeconds: () => 0,
        handle: work.handle,
      });
      const id = await enqueueJob(database.db, 'outage', {});
      try {
        await vi.waitFor(() => expect(work.times).toBe(1));
        const [claimed] = await database.db.select({ until: jobs.lockedUntil }).from(jobs).where(eq(jobs.id, id));
        await vi.waitFor(
          async () => {
            const [row] = await database.db.select({ past: sql<boolean>`clock_timestamp() > ${claimed!.until!.toISOString()}::timestamptz + interval '500 milliseconds'` }).from(jobs).where(eq(jobs.id, id));
            expect(row!.past).toBe(true);
          },
          { timeout: 10_000, interval: 100 },
        );
      } finally {
        await database.db.execute(sql.raw('delete from refusing_all;'));
      }
      await runner.idle(['outage'], 60_000);
      await allow();
      await database.db.execute(sql.raw('drop table refusing_all;'));

      expect(work.times).toBe(1);
      const [row] = await database.db.select({ status: jobs.status, attempts: jobs.attempts, checkpoint: jobs.checkpoint }).from(jobs).where(eq(jobs.id, id));
      expect(row).toEqual({ status: 'done', attempts: 1, checkpoint: { sent: true } });
    });

    it("takes over a job whose instance died while running it, and makes one job of one dedupe key", async () => {
      const attempts: number[] = [];
      const first = await enqueueJob(database.db, 'orphans', { n: 1 }, { dedupeKey: 'orphan-1' });
      expect(await enqueueJob(database.db, 'orphans', { n: 1 }, { dedupeKey: 'orphan-1' })).toBe(first);
      // An instance claimed it, then died: its lease ran out.
      await database.db.update(jobs).set({ status: 'running', attempts: 1, lockedBy: 'dead', lockedUntil: sql`now() - interval '1 second'` }).where(eq(jobs.id, first));

      const runner = start({ queue: 'orphans', handle: async (job) => void attempts.push(job.attempt) });
      await runner.idle(['orphans']);

      expect(attempts).toEqual([2]);
      expect(await statusOf(database, first)).toMatchObject({ status: 'done', attempts: 2 });
    });

    it('keeps a slow run its own: its lease is renewed, so another instance never takes it over', async () => {
      let runs = 0;
      // A slow SMTP server: the send takes three times the lease.
      const slow = { queue: 'slow-send', leaseSeconds: 1, handle: async () => void (runs++, await new Promise((resolve) => setTimeout(resolve, 3_000))) };
      const [one, other] = [start(slow), start(slow)];
      const id = await enqueueJob(database.db, 'slow-send', {});
      await one.idle(['slow-send'], 20_000);
      await other.idle(['slow-send'], 20_000);

      expect(runs).toBe(1);
      expect(await statusOf(database, id)).toEqual({ status: 'done', attempts: 1, lastError: null });
    });

    it('stops a run at its time limit and tries again; one that ignores it is left behind and failed', async () => {
      const reasons: string[] = [];
      const runner = startWith(
        { giveUpGraceMs: 200 },
        {
          queue: 'stuck-once',
          timeLimitSeconds: 1,
          backoffSeconds: () => 0,
          handle: async (job) => {
            if (job.attempt > 1) return;
            await new Promise((resolve) => job.signal.addEventListener('abort', resolve, { once: true }));
            reasons.push(String((job.signal.reason as Error).message));
            throw job.signal.reason;
          },
        },
        // A library call that never returns, whatever it is told.
        { queue: 'hung', timeLimitSeconds: 1, handle: () => new Promise<void>(() => {}) },
      );
      const stuck = await enqueueJob(database.db, 'stuck-once', {});
      const hung = await enqueueJob(database.db, 'hung', {}, { maxAttempts: 1 });
      await runner.idle(['stuck-once', 'hung'], 20_000);

      expect(reasons).toEqual(['The job ran longer than its limit of 1 s.']);
      expect(await statusOf(database, stuck)).toEqual({ status: 'done', attempts: 2, lastError: null });
      expect(await statusOf(database, hung)).toEqual({ status: 'failed', attempts: 1, lastError: 'The job ran longer than its limit of 1 s.' });
    });

    it('stops within its bound while a run goes on, queuing that job again for the next instance', async () => {
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const runner = runnerOn(database, [{ queue: 'endless', handle: () => (started(), new Promise<void>(() => {})) }], { stopWaitMs: 300 });
      const id = await enqueueJob(database.db, 'endless', {});
      await running;
      const before = performance.now();
      await runner.stop();

      expect(performance.now() - before).toBeLessThan(5_000);
      expect(await statusOf(database, id)).toMatchObject({ status: 'queued', attempts: 0 });
    });

    it('a job that waits for later is not run before its time', async () => {
      const ran: number[] = [];
      const runner = start({ queue: 'later', handle: async (job: Job<{ n: number }>) => void ran.push(job.payload.n) });
      await enqueueJob(database.db, 'later', { n: 1 }, { runAt: new Date(Date.now() + 3_600_000) });
      await enqueueJob(database.db, 'later', { n: 2 });
      await runner.idle(['later']);

      expect(ran).toEqual([2]);
      expect(await runner.stats()).toEqual(expect.arrayContaining([expect.objectContaining({ queue: 'later', queued: 1, oldestWaitSeconds: 0 })]));
    });

    if (kind === 'postgres') {
      it('runs each of many jobs exactly once across two instances', async () => {
        const second = await openAnotherConnection(database);
        const ranBy = new Map<number, string[]>();
        // The first runs wait until both instances are running one (or 10 s): the work must be shared, not merely serialised.
        let bothRunning: () => void = () => {};
        const both = new Promise<void>((resolve) => (bothRunning = resolve));
        const handle = (instance: string) => async (job: Job<{ n: number }>) => {
          ranBy.set(job.payload.n, [...(ranBy.get(job.payload.n) ?? []), instance]);
          if (new Set([...ranBy.values()].flat()).size === 2) bothRunning();
          await Promise.race([both, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        };
        const a = start({ queue: 'shared', concurrency: 4, handle: handle('a') });
        const b = runnerOn(second, [{ queue: 'shared', concurrency: 4, handle: handle('b') }]);
        try {
          await database.db.transaction(async (tx) => {
            for (let n = 0; n < 60; n++) await enqueueJob(tx, 'shared', { n });
          });
          await a.idle(['shared']);
          await b.idle(['shared']);
        } finally {
          await b.stop();
          await second.close();
        }

        expect([...ranBy.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, n) => n));
        expect([...ranBy.values()].every((instances) => instances.length === 1)).toBe(true);
        expect(new Set([...ranBy.values()].flat())).toEqual(new Set(['a', 'b']));
      });
    }
  });
}
