import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app';
import { enqueueMail, MAIL_QUEUE, type Database } from '../../platform';
import { jobs } from '../../schema/jobs';
import { call, createThroughApi, signedInAdmin, type Admin } from '../../test/api-users';
import { buildTestApp, createTestDatabase, describeEachDatabase, isPostgresReachable, openAnotherConnection, TEST_JWT_SECRET, type TestContext, type TestDatabase } from '../../test/build-app';
import { loginAs, unique } from '../../test/factories';
import { MailServer, sharedMailServer } from '../../test/mail-server';
import { parseMetrics, sampleOf } from '../../test/prometheus';

const PUBLIC_URL = 'https://siteboard.example.test';
const rowsOf = <Row>(result: unknown): Row[] => (result as { rows: Row[] }).rows;
/** What Prometheus reads of the mail jobs failed for good (`siteboard_jobs_failed`), from every company. */
const failedMailsGauge = async (ctx: TestContext) => sampleOf(parseMetrics(await ctx.app.metrics.text()), 'siteboard_jobs_failed', { queue: MAIL_QUEUE })?.value;
const mailSettings = (server: MailServer) => ({ smtpUrl: server.url, from: 'SiteBoard <noreply@siteboard.example.test>' });

describeEachDatabase(
  'mails refused for good',
  (ctx) => {
    it('records a permanent refusal (5xx) at once, without retrying, and shows it to the company’s admins only', async () => {
      const admin = await signedInAdmin(ctx);
      const email = `refused-${unique('x')}@example.test`;
      expect((await call(ctx, admin.access, 'POST', '/api/invitations/', { email, role: 'manager', full_name: 'Nobody Here' })).statusCode).toBe(201);

      await ctx.app.jobs.idle([MAIL_QUEUE]);

      const failed = await call(ctx, admin.access, 'GET', '/api/email/failed/');
      expect(failed.statusCode).toBe(200);
      expect(failed.json()).toEqual([
        expect.objectContaining({ kind: 'invitation', to: email, to_name: 'Nobody Here', subject: `You are invited to ${admin.company.name} on SiteBoard`, attempts: 1, error: expect.stringContaining('550') }),
      ]);
      expect(await failedMailsGauge(ctx)).toBe(1);
      const other = await signedInAdmin(ctx);
      expect((await call(ctx, other.access, 'GET', '/api/email/failed/')).json()).toEqual([]);
      const manager = await createThroughApi(ctx, admin);
      expect((await call(ctx, (await loginAs(ctx.app, manager)).access, 'GET', '/api/email/failed/')).statusCode).toBe(403);
      expect((await ctx.app.inject({ method: 'GET', url: '/api/email/' })).json()).toEqual({ configured: true });
    });
  },
  { mail: mailSettings(await sharedMailServer()), publicUrl: PUBLIC_URL, jobPollMs: 200 },
);

describeEachDatabase(
  'a mail the SMTP server accepted before its job was marked done (decision record 114)',
  (ctx) => {
    const mail = (address: string) => ({ kind: 'invitation', to: { name: null, address }, subject: 'Crash window', text: 'Hello', html: '<p>Hello</p>' });
    const jobOf = async (address: string) => {
      const [row] = await ctx.app.db
        .select({ status: jobs.status, attempts: jobs.attempts, checkpoint: jobs.checkpoint })
        .from(jobs)
        .where(and(eq(jobs.queue, MAIL_QUEUE), sql`${jobs.payload}->'to'->>'address' = ${address}`));
      return row!;
    };
    /** The mail queued as if every attempt but its last had failed (the SMTP server down for hours). */
    const enqueueOnLastAttempt = (address: string, companyId: number | null) =>
      ctx.app.db.transaction(async (tx) => {
        const id = await enqueueMail(tx, mail(address), { companyId });
        await tx.update(jobs).set({ attempts: sql`${jobs.maxAttempts} - 1` }).where(eq(jobs.id, id));
      });
    /** A trigger that changes what the first run (or `run`) writes for this mail's job (`body` runs when `when` holds), as the database saw it then. */
    const onFirstRun = (address: string, when: string, body: string, run = '1') =>
      ctx.app.db.execute(
        sql.raw(`
          create or replace function crash_window() returns trigger language plpgsql as $$
          begin
            if old.payload->'to'->>'address' = '${address}' and old.attempts = ${run} and (${when}) then ${body} end if;
            return new;
          end $$;
          drop trigger if exists crash_window on jobs;
          create trigger crash_window before update on jobs for each row execute function crash_window();
        `),
      );

    it('does not send it again when its instance died before marking the job done', async () => {
      const server = await sharedMailServer();
      const address = `${unique('crash')}@example.test`;
      // The completion is lost and the lease runs out: what a process killed right after the SMTP server's 250 leaves behind.
      await onFirstRun(address, `new.status = 'done'`, `new := old; new.locked_until := now() - interval '1 second';`);
      await enqueueMail(ctx.app.db, mail(address), { companyId: null });

      await ctx.app.jobs.idle([MAIL_QUEUE]);

      const received = await server.waitForMails(address);
      expect(received).toHaveLength(1);
      expect(await jobOf(address)).toEqual({ status: 'done', attempts: 2, checkpoint: expect.objectContaining({ message_id: received[0]!.messageId, accepted_at: expect.any(String) }) });
    });

    it('does not send it again, and never queues it without its acceptance, when recording it failed for a moment', async () => {
      const server = await sharedMailServer();
      const address = `${unique('blip')}@example.test`;
      // The acceptance's own record and the run's first tries to record it are refused (a moment's outage): three refusals.
      await ctx.app.db.execute(sql.raw('create sequence if not exists acceptance_blips; select setval(\'acceptance_blips\', 1, false);'));
      await onFirstRun(address, `new.checkpoint is distinct from old.checkpoint and nextval('acceptance_blips') <= 3`, `raise exception 'the database went away';`);
      await enqueueMail(ctx.app.db, mail(address), { companyId: null });

      await ctx.app.jobs.idle([MAIL_QUEUE]);
      const received = await server.mailsTo(address);
      expect(received).toHaveLength(1);
      // Never queued without it: the job holds the acceptance (completed, or queued with it for a later run).
      expect(await jobOf(address)).toMatchObject({ attempts: 1, checkpoint: expect.objectContaining({ message_id: received[0]!.messageId }) });
      // A later run, due now rather than after its back-off, completes it without sending.
      await ctx.app.db.update(jobs).set({ runAt: sql`now()` }).where(and(eq(jobs.status, 'queued'), sql`${jobs.payload}->'to'->>'address' = ${address}`));
      await ctx.app.jobs.idle([MAIL_QUEUE]);

      expect(await server.mailsTo(address)).toHaveLength(1);
      expect(await jobOf(address)).toMatchObject({ status: 'done', checkpoint: expect.objectContaining({ message_id: received[0]!.messageId }) });
      expect(ctx.app.jobs.keptCheckpoints()).toBe(0);
    });

    it('ends the job done, never failed, when its acceptance cannot be recorded at all', async () => {
      const server = await sharedMailServer();
      const admin = await signedInAdmin(ctx);
      const address = `${unique('last')}@example.test`;
      // The database refuses the acceptance's value itself (a data exception), however often it is asked.
      await onFirstRun(address, `new.checkpoint is distinct from old.checkpoint`, `raise exception using errcode = '22023', message = 'the value is refused';`);
      await enqueueMail(ctx.app.db, mail(address), { companyId: admin.company.id });

      await ctx.app.jobs.idle([MAIL_QUEUE]);

      expect(await server.mailsTo(address)).toHaveLength(1);
      expect(await jobOf(address)).toMatchObject({ status: 'done', attempts: 1 });
      // The person got it: the admins' list of mails given up does not say otherwise.
      expect((await call(ctx, admin.access, 'GET', '/api/email/failed/')).json()).toEqual([]);
      // Done, it holds nothing of it in memory (a long-running server would gather them).
      expect(ctx.app.jobs.keptCheckpoints()).toBe(0);
    });

    it('completes it on a later run, never failed, when marking it done fails on its last attempt', async () => {
      const server = await sharedMailServer();
      const admin = await signedInAdmin(ctx);
      const address = `${unique('done')}@example.test`;
      await onFirstRun(address, `new.status = 'done'`, `raise exception 'the database went away';`, 'old.max_attempts');
      await enqueueOnLastAttempt(address, admin.company.id);

      await ctx.app.jobs.idle([MAIL_QUEUE]);
      // Its bookkeeping's retry is due now rather than after its back-off.
      await ctx.app.db.update(jobs).set({ runAt: sql`now()` }).where(sql`${jobs.payload}->'to'->>'address' = ${address}`);
      await ctx.app.jobs.idle([MAIL_QUEUE]);

      const received = await server.mailsTo(address);
      expect(received).toHaveLength(1);
      expect(await jobOf(address)).toEqual({ status: 'done', attempts: 14, checkpoint: expect.objectContaining({ message_id: received[0]!.messageId }) });
      expect((await call(ctx, admin.access, 'GET', '/api/email/failed/')).json()).toEqual([]);
    });

    it('does not send it again from another instance when neither its acceptance nor its completion could be recorded on its last attempt', async () => {
      const server = await sharedMailServer();
      const address = `${unique('both')}@example.test`;
      // The acceptance's own record and both of the runner's `done` writes are refused; queuing it again is not.
      await onFirstRun(address, `new.status = 'done' or (new.status = 'running' and new.checkpoint is distinct from old.checkpoint)`, `raise exception 'the database went away';`, 'old.max_attempts');
      await enqueueOnLastAttempt(address, null);

      await ctx.app.jobs.idle([MAIL_QUEUE]);
      expect(await server.mailsTo(address)).toHaveLength(1);
      expect(await jobOf(address)).toMatchObject({ status: 'queued', attempts: 13 });
      // Due now, and run by an instance that never saw the first run: it knows only what the job says.
      await ctx.app.db.update(jobs).set({ runAt: sql`now()` }).where(sql`${jobs.payload}->'to'->>'address' = ${address}`);
      const other = await buildTestApp({ mail: mailSettings(server), publicUrl: PUBLIC_URL, database: ctx.database, jwtSecret: TEST_JWT_SECRET });
      try {
        await other.ready();
        await other.jobs.idle([MAIL_QUEUE]);
      } finally {
        await other.close();
      }

      const received = await server.mailsTo(address);
      expect(received).toHaveLength(1);
      expect(await jobOf(address)).toEqual({ status: 'done', attempts: 14, checkpoint: expect.objectContaining({ message_id: received[0]!.messageId }) });
    });

    it('does not send it again, and records it, when the database refused every record of its run for a while', async () => {
      const server = await sharedMailServer();
      const address = `${unique('outage')}@example.test`;
      // While its address is listed, the database refuses the acceptance's record, the job's `done` and its requeue, counting each refusal.
      await ctx.app.db.execute(
        sql.raw(`
          create table refusing_mail (address text primary key);
          insert into refusing_mail values ('${address}');
          create sequence mail_refusals;
          create or replace function refuse_mail() returns trigger language plpgsql as $$
          begin
            if exists (select 1 from refusing_mail where address = old.payload->'to'->>'address')
              and (new.status in ('done', 'queued') or new.checkpoint is distinct from old.checkpoint) then
              perform nextval('mail_refusals');
              raise exception 'the database went away';
            end if;
            return new;
          end $$;
          create trigger refuse_mail before update on jobs for each row execute function refuse_mail();
        `),
      );
      try {
        await enqueueMail(ctx.app.db, mail(address), { companyId: null });
        await server.waitForMails(address);
        // The acceptance's record; its completion and both requeues (with the acceptance, without it); and all three again.
        await until(async () => {
          const [row] = rowsOf<{ refused: number }>(await ctx.app.db.execute(sql.raw(`select last_value::int as refused from mail_refusals`)));
          return row!.refused >= 7;
        }, 'the run trying again to record its mail');
      } finally {
        await ctx.app.db.execute(sql.raw('delete from refusing_mail;'));
      }
      await ctx.app.jobs.idle([MAIL_QUEUE]);
      // Its run completes it, or (the refusals lifted between its `done` and its requeue) queues it for a later run: due now.
      await ctx.app.db.update(jobs).set({ runAt: sql`now()` }).where(and(eq(jobs.status, 'queued'), sql`${jobs.payload}->'to'->>'address' = ${address}`));
      await ctx.app.jobs.idle([MAIL_QUEUE]);
      await ctx.app.db.execute(sql.raw('drop trigger refuse_mail on jobs; drop function refuse_mail(); drop sequence mail_refusals; drop table refusing_mail;'));

      const received = await server.mailsTo(address);
      expect(received).toHaveLength(1);
      expect(await jobOf(address)).toMatchObject({ status: 'done', checkpoint: expect.objectContaining({ message_id: received[0]!.messageId }) });
      // Nothing of it is left in memory once it is recorded.
      expect(ctx.app.jobs.keptCheckpoints()).toBe(0);
    });

    it('does not list as failed a mail that went but whose completion could never be recorded', async () => {
      const server = await sharedMailServer();
      const admin = await signedInAdmin(ctx);
      const address = `${unique('unfinished')}@example.test`;
      // Every `done` of its job is refused, and each requeue is due at once (rather than after its back-off).
      await onFirstRun(address, 'true', `if new.status = 'done' then raise exception 'the database went away'; end if; if new.status = 'queued' then new.run_at := now(); end if;`, 'old.attempts');
      await enqueueOnLastAttempt(address, admin.company.id);

      try {
        await ctx.app.jobs.idle([MAIL_QUEUE]);
      } finally {
        await ctx.app.db.execute(sql.raw('drop trigger crash_window on jobs;'));
      }

      const received = await server.mailsTo(address);
      expect(received).toHaveLength(1);
      // Given up after its last attempt and the runs that tried to complete it, its acceptance kept:
      expect(await jobOf(address)).toEqual({ status: 'failed', attempts: 16, checkpoint: expect.objectContaining({ message_id: received[0]!.messageId }) });
      // the person got it, so the admins' list of mails given up does not show it, nor does the
      // operators' gauge of failed jobs (no other mail of this app's database failed).
      expect((await call(ctx, admin.access, 'GET', '/api/email/failed/')).json()).toEqual([]);
      expect(await failedMailsGauge(ctx)).toBe(0);
    });
  },
  { mail: mailSettings(await sharedMailServer()), publicUrl: PUBLIC_URL },
);

/** Two instances on one PostgreSQL database, each with its own pool and job runner, sending through `server`. */
async function twoInstances(database: TestDatabase, server: MailServer) {
  const second = await openAnotherConnection(database);
  const options = { jwtSecret: TEST_JWT_SECRET, mail: mailSettings(server), publicUrl: PUBLIC_URL, jobPollMs: 100 };
  const appA = await buildTestApp({ ...options, database });
  const appB = await buildTestApp({ ...options, database: second });
  await Promise.all([appA.ready(), appB.ready()]);
  return { appA, appB, second };
}

const invite = (ctx: Pick<TestContext, 'app'>, admin: Admin, email: string) => call(ctx as TestContext, admin.access, 'POST', '/api/invitations/', { email, role: 'manager' });

async function mailJobs(app: App) {
  return app.db.select({ status: jobs.status, attempts: jobs.attempts }).from(jobs).where(eq(jobs.queue, MAIL_QUEUE));
}

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Not true within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('the outbox across instances [postgres]', async () => {
  const skip = !(await isPostgresReachable());
  let database: TestDatabase;
  let server: MailServer;
  let instances: { appA: App; appB: App; second: Database };

  beforeAll(async () => {
    if (skip) return;
    server = await new MailServer().start();
    database = await createTestDatabase('postgres');
    instances = await twoInstances(database, server);
  });
  afterAll(async () => {
    await instances?.appB.close();
    await instances?.second.close();
    await instances?.appA.close();
    await database?.drop();
    await server?.stop();
  });

  it.skipIf(skip)('sends each of many mails exactly once from two instances', async () => {
    const admin = await signedInAdmin({ app: instances.appA } as TestContext);
    const addresses = Array.from({ length: 24 }, () => `${unique('crew')}@example.test`);

    for (const [index, email] of addresses.entries()) expect((await invite({ app: index % 2 ? instances.appB : instances.appA }, admin, email)).statusCode).toBe(201);

    await Promise.all(addresses.map((email) => server.waitForMails(email)));
    await Promise.all([instances.appA.jobs.idle([MAIL_QUEUE]), instances.appB.jobs.idle([MAIL_QUEUE])]);
    for (const email of addresses) expect(await server.mailsTo(email)).toHaveLength(1);
    const ids = new Set(server.received.map((mail) => mail.parsed.messageId));
    expect(ids.size).toBe(server.received.length);
  });

  it.skipIf(skip)('keeps mails while the SMTP server is down and through a restart: they arrive once it is back, none twice', async () => {
    const admin = await signedInAdmin({ app: instances.appA } as TestContext);
    const email = `${unique('patient')}@example.test`;
    await server.stop();

    expect((await invite({ app: instances.appA }, admin, email)).statusCode).toBe(201);
    await until(async () => (await mailJobs(instances.appA)).some((job) => job.status === 'queued' && job.attempts >= 1), 'a failed attempt');

    // One instance restarts while the server is down: nothing queued is lost.
    await instances.appA.close();
    instances.appA = await buildTestApp({ database, jwtSecret: TEST_JWT_SECRET, mail: mailSettings(server), publicUrl: PUBLIC_URL, jobPollMs: 100 });
    await instances.appA.ready();
    await server.start();

    const [mail] = await server.waitForMails(email, 1, 30_000);
    expect(mail!.subject).toContain('You are invited to');
    await Promise.all([instances.appA.jobs.idle([MAIL_QUEUE]), instances.appB.jobs.idle([MAIL_QUEUE])]);
    expect(await server.mailsTo(email)).toHaveLength(1);
    const [row] = await instances.appA.db
      .select({ status: jobs.status, attempts: jobs.attempts })
      .from(jobs)
      .where(and(eq(jobs.queue, MAIL_QUEUE), sql`${jobs.payload}->'to'->>'address' = ${email}`));
    expect(row!.status).toBe('done');
    expect(row!.attempts).toBeGreaterThanOrEqual(2);
  });
});
