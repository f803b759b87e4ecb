import { and, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { dailyLogs } from '../../schema/daily-logs';
import { notificationRecipients, notifications } from '../../schema/notifications';
import { projects } from '../../schema/projects';
import { majorTasks, subtasks } from '../../schema/tasks';
import { users } from '../../schema/users';
import { describeEachDatabase, type TestContext } from '../../test/build-app';
import type { NotificationRecord } from '@siteboard/shared';
import { createUser, loginAs, type TestUser } from '../../test/factories';
import { callAs, createTeam, insertProject, insertSubtask, insertWork, type Team } from '../../test/work-factories';
import { insertNotifications } from './notifications.queries';
import { runDailyLogReminders, runSweeps } from './notifications.service';

const HOUR = 3_600_000;
const DELAY_HOURS = 48;

/** The calendar date at `now` in a time zone, `days` later, as the sweep must compute it. */
function dateIn(timeZone: string, now: Date, days = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  const date = new Date(`${today}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

async function sentAbout(ctx: TestContext, subtaskId: number) {
  return ctx.app.db
    .select({ type: notifications.type, message: notifications.message, createdBy: notifications.createdBy, dedupeKey: notifications.dedupeKey, userId: notificationRecipients.userId })
    .from(notifications)
    .innerJoin(notificationRecipients, eq(notificationRecipients.notificationId, notifications.id))
    .where(eq(notifications.subtaskId, subtaskId))
    .orderBy(notifications.id, notificationRecipients.userId);
}

async function subtaskNames(ctx: TestContext, subtaskId: number) {
  const [row] = await ctx.app.db
    .select({ name: subtasks.name, projectName: projects.name })
    .from(subtasks)
    .innerJoin(majorTasks, eq(majorTasks.id, subtasks.majorTaskId))
    .innerJoin(projects, eq(projects.id, majorTasks.projectId))
    .where(eq(subtasks.id, subtaskId));
  return row!;
}

const sweep = (ctx: TestContext, now: Date) => runSweeps(ctx.app.db, { now, approvalDelayHours: DELAY_HOURS });

describeEachDatabase('notification sweeps', (ctx) => {
  // 14:00 UTC on 1 July: already 2 July in Auckland (UTC+12), still the morning of 1 July in Los Angeles (UTC-7).
  const now = new Date('2026-07-01T14:00:00Z');
  let auckland: Team;
  let losAngeles: Team;
  beforeAll(async () => {
    auckland = await createTeam(ctx.app, { timezone: 'Pacific/Auckland' });
    losAngeles = await createTeam(ctx.app, { timezone: 'America/Los_Angeles' });
  });

  it("reminds the assignee, once, from 07:00 on the eve of the due date in their company's time zone", async () => {
    const nzTomorrow = dateIn('Pacific/Auckland', now, 1);
    const laTomorrow = dateIn('America/Los_Angeles', now, 1);
    expect(nzTomorrow).not.toBe(laTomorrow);
    // What other tests left due in these hours is sent first: the sweeps below count only this test's.
    await sweep(ctx, new Date(now.getTime() + 6 * HOUR));
    const nzDue = await insertWork(ctx.app.db, auckland, { dueDate: nzTomorrow });
    const nzNotYet = await insertWork(ctx.app.db, auckland, { dueDate: laTomorrow });
    const laDue = await insertWork(ctx.app.db, losAngeles, { dueDate: laTomorrow });
    const laNotYet = await insertWork(ctx.app.db, losAngeles, { dueDate: nzTomorrow });

    // 07:00 in Los Angeles; 02:00 in Auckland, too early for a reminder there.
    const first = await sweep(ctx, now);
    const laOnly = (await sentAbout(ctx, nzDue.subtaskId)).length;
    // 07:00 in Auckland, then an hour later.
    const second = await sweep(ctx, new Date(now.getTime() + 5 * HOUR));
    const third = await sweep(ctx, new Date(now.getTime() + 6 * HOUR));

    const names = await subtaskNames(ctx, nzDue.subtaskId);
    expect(laOnly).toBe(0);
    expect(await sentAbout(ctx, nzDue.subtaskId)).toEqual([
      {
        type: 'deadline_reminder',
        message: `'${names.name}' (${names.projectName}) is due tomorrow (${nzTomorrow})`,
        createdBy: 'System',
        dedupeKey: `deadline_reminder:${nzDue.subtaskId}:${nzTomorrow}`,
        userId: auckland.member.id,
      },
    ]);
    expect((await sentAbout(ctx, laDue.subtaskId)).map((row) => [row.type, row.userId, row.dedupeKey])).toEqual([
      ['deadline_reminder', losAngeles.member.id, `deadline_reminder:${laDue.subtaskId}:${laTomorrow}`],
    ]);
    expect(await sentAbout(ctx, nzNotYet.subtaskId)).toEqual([]);
    expect(await sentAbout(ctx, laNotYet.subtaskId)).toEqual([]);
    expect(first).toMatchObject({ swept: true });
    expect(second).toMatchObject({ swept: true });
    expect(third).toMatchObject({ swept: true, created: 0 });
  });

  it('reminds nobody of a completed subtask, of a subtask in a completed project, or a deleted assignee', async () => {
    const tomorrow = dateIn('Pacific/Auckland', now, 1);
    const completed = await insertWork(ctx.app.db, auckland, { dueDate: tomorrow, status: 'completed' });
    const closedProject = await insertWork(ctx.app.db, auckland, { dueDate: tomorrow, projectStatus: 'completed' });
    const leaver = await createTeam(ctx.app, { timezone: 'Pacific/Auckland' });
    const orphaned = await insertWork(ctx.app.db, leaver, { dueDate: tomorrow });
    await ctx.app.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, leaver.member.id));
    const pending = await insertWork(ctx.app.db, auckland, { dueDate: tomorrow, status: 'pending_approval' });

    // 08:00 in Auckland, the eve of `tomorrow`.
    await sweep(ctx, new Date(now.getTime() + 6 * HOUR));

    expect(await sentAbout(ctx, completed.subtaskId)).toEqual([]);
    expect(await sentAbout(ctx, closedProject.subtaskId)).toEqual([]);
    expect(await sentAbout(ctx, orphaned.subtaskId)).toEqual([]);
    expect((await sentAbout(ctx, pending.subtaskId)).map((row) => row.type)).toEqual(['deadline_reminder']);
  });

  it('reports a subtask waiting for approval to its approvers only once it has waited longer than the threshold, once a day', async () => {
    const work = await insertWork(ctx.app.db, losAngeles, { status: 'pending_approval', assignedById: losAngeles.otherManager.id, dueDate: '2026-12-01' });
    const submittedAt = new Date(now.getTime() - (DELAY_HOURS - 1) * HOUR);
    await ctx.app.db.update(subtasks).set({ submittedAt }).where(eq(subtasks.id, work.subtaskId));
    const legacy = await insertWork(ctx.app.db, losAngeles, { status: 'pending_approval', dueDate: '2026-12-01' });

    await sweep(ctx, now);
    expect(await sentAbout(ctx, work.subtaskId)).toEqual([]);

    const later = new Date(submittedAt.getTime() + DELAY_HOURS * HOUR + 1000);
    await sweep(ctx, later);
    await sweep(ctx, new Date(later.getTime() + HOUR));

    const names = await subtaskNames(ctx, work.subtaskId);
    const message = `'${names.name}' (${names.projectName}) from ${losAngeles.member.email} has been waiting for approval for more than ${DELAY_HOURS} hours`;
    const key = `approval_delay:${work.subtaskId}:${dateIn('America/Los_Angeles', later)}`;
    expect(await sentAbout(ctx, work.subtaskId)).toEqual(
      [losAngeles.manager.id, losAngeles.otherManager.id]
        .sort((a, b) => a - b)
        .map((userId) => ({ type: 'approval_delay', message, createdBy: 'System', dedupeKey: key, userId })),
    );
    // Without submitted_at there is no telling how long it waited.
    expect(await sentAbout(ctx, legacy.subtaskId)).toEqual([]);

    // The next day (in Los Angeles) it is reported again.
    await sweep(ctx, new Date(later.getTime() + 24 * HOUR));
    expect(new Set((await sentAbout(ctx, work.subtaskId)).map((row) => row.dedupeKey)).size).toBe(2);
  });

  it('creates no duplicates when two sweeps run at the same time', async () => {
    const tomorrow = dateIn('America/Los_Angeles', now, 1);
    const team = await createTeam(ctx.app, { timezone: 'America/Los_Angeles' });
    // What other tests left due then is sent first, so the sweeps below count only this test's.
    await sweep(ctx, now);
    const base = await insertWork(ctx.app.db, team, { dueDate: tomorrow });
    const more = await Promise.all(
      Array.from({ length: 20 }, () => insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: base.majorTaskId, assignedToId: team.member.id, assignedById: team.manager.id, dueDate: tomorrow })),
    );
    const ids = [base.subtaskId, ...more.map((row) => row.id)];

    const results = await Promise.all([sweep(ctx, now), sweep(ctx, now), sweep(ctx, now)]);

    const rows = await ctx.app.db.select({ key: notifications.dedupeKey }).from(notifications).where(inArray(notifications.subtaskId, ids));
    expect(rows).toHaveLength(ids.length);
    expect(new Set(rows.map((row) => row.key)).size).toBe(ids.length);
    expect(results.reduce((sum, result) => sum + (result.swept ? result.created : 0), 0)).toBe(ids.length);
  });

  it('lets the unique key refuse a second copy even without the lock', async () => {
    const draft = { companyId: auckland.company.id, type: 'deadline_reminder' as const, params: { task: 'x', project: 'y', due: '2026-01-01' }, createdBy: 'System', subtaskId: null, dedupeKey: `test:${Date.now()}`, recipients: [auckland.member.id] };

    expect(await ctx.app.db.transaction((tx) => insertNotifications(tx, [draft]))).toMatchObject({ created: 1 });
    expect(await ctx.app.db.transaction((tx) => insertNotifications(tx, [draft, { ...draft, dedupeKey: `${draft.dedupeKey}:other` }]))).toMatchObject({ created: 1 });
  });

  it('runs the same few statements for many subtasks as for one', async () => {
    const later = new Date('2026-09-10T18:00:00Z');
    const team = await createTeam(ctx.app, { timezone: 'America/Los_Angeles' });
    const tomorrow = dateIn('America/Los_Angeles', later, 1);
    // What earlier tests left due that day is sent first, so each sweep below sends only this test's.
    await sweep(ctx, later);
    const base = await insertWork(ctx.app.db, team, { dueDate: tomorrow });

    ctx.queries.length = 0;
    expect(await sweep(ctx, later)).toMatchObject({ created: 1 });
    const forOne = ctx.queries.length;
    await ctx.app.db.insert(subtasks).values(
      Array.from({ length: 300 }, (_, i) => ({ companyId: team.company.id, majorTaskId: base.majorTaskId, name: `Bulk ${i}`, assignedToId: team.member.id, assignedById: team.manager.id, dueDate: tomorrow })),
    );
    ctx.queries.length = 0;
    expect(await sweep(ctx, later)).toMatchObject({ created: 300 });

    if (process.env.SHOW_STATEMENT_COUNTS) console.info(`sweep: ${forOne} statements for 1 reminder, ${ctx.queries.length} for 300`);
    expect(ctx.queries.length).toBe(forOne);
  });

  it('sends a large backlog in bounded batches, each subtask once', async () => {
    const later = new Date('2026-09-12T18:00:00Z');
    const team = await createTeam(ctx.app, { timezone: 'America/Los_Angeles' });
    const tomorrow = dateIn('America/Los_Angeles', later, 1);
    await sweep(ctx, later);
    const base = await insertWork(ctx.app.db, team, { dueDate: tomorrow });
    await ctx.app.db.insert(subtasks).values(
      Array.from({ length: 249 }, (_, i) => ({ companyId: team.company.id, majorTaskId: base.majorTaskId, name: `Backlog ${i}`, assignedToId: team.member.id, assignedById: team.manager.id, dueDate: tomorrow })),
    );

    ctx.queries.length = 0;
    expect(await runSweeps(ctx.app.db, { now: later, approvalDelayHours: DELAY_HOURS, batchSize: 100 })).toMatchObject({ swept: true, deadlineReminders: 250, created: 250 });
    // Three transactions of up to 100 reminders each (100, 100, 50), not one statement of 250.
    expect(ctx.queries.filter((query) => /insert into "notifications"/.test(query))).toHaveLength(3);
    const reminders = await ctx.app.db
      .select({ subtaskId: notifications.subtaskId })
      .from(notifications)
      .where(and(eq(notifications.companyId, team.company.id), eq(notifications.type, 'deadline_reminder')));
    expect(new Set(reminders.map((row) => row.subtaskId)).size).toBe(250);
    expect(reminders).toHaveLength(250);
    expect(await runSweeps(ctx.app.db, { now: later, approvalDelayHours: DELAY_HOURS, batchSize: 100 })).toMatchObject({ created: 0 });
  });

  it('goes on past a full batch of candidates that have no one to tell, each batch after the last', async () => {
    const later = new Date('2026-09-14T18:00:00Z');
    const team = await createTeam(ctx.app, { timezone: 'America/Los_Angeles' });
    const waitingSince = new Date(later.getTime() - (DELAY_HOURS + 1) * HOUR);
    await sweep(ctx, later);
    // Waiting for approval with no manager on the project, assigned by the assignee (who is never told of their own
    // delay): candidates that make no notification, ahead (lower ids) of two that do.
    const silent = [];
    for (let i = 0; i < 3; i++) silent.push((await insertWork(ctx.app.db, team, { status: 'pending_approval', projectManagerId: null, assignedById: team.member.id, dueDate: '2027-06-30' })).subtaskId);
    const heard = [];
    for (let i = 0; i < 2; i++) heard.push((await insertWork(ctx.app.db, team, { status: 'pending_approval', dueDate: '2027-06-30' })).subtaskId);
    await ctx.app.db.update(subtasks).set({ submittedAt: waitingSince }).where(inArray(subtasks.id, [...silent, ...heard]));

    try {
      ctx.queries.length = 0;
      expect(await runSweeps(ctx.app.db, { now: later, approvalDelayHours: DELAY_HOURS, batchSize: 2 })).toMatchObject({ swept: true, approvalDelays: 5, created: 2 });
      // Batches of two: [silent, silent], [silent, heard], [heard], each reading only after the last id of the one before.
      expect(ctx.queries.filter((query) => /insert into "notifications"/.test(query))).toHaveLength(2);
      for (const id of heard) expect((await sentAbout(ctx, id)).map((row) => [row.type, row.userId])).toEqual([['approval_delay', team.manager.id]]);
      for (const id of silent) expect(await sentAbout(ctx, id)).toEqual([]);
    } finally {
      await ctx.app.db.update(subtasks).set({ status: 'completed' }).where(inArray(subtasks.id, [...silent, ...heard]));
    }
  });

  it("tells the project's manager once, the day after its due date in the company's zone, of a subtask not completed", async () => {
    const later = new Date('2026-10-20T14:00:00Z');
    const team = await createTeam(ctx.app, { timezone: 'Pacific/Auckland' });
    // What earlier tests left overdue that day is reported first.
    await sweep(ctx, later);
    const overdue = await insertWork(ctx.app.db, team, { dueDate: dateIn('Pacific/Auckland', later, -1) });
    const dueToday = await insertWork(ctx.app.db, team, { dueDate: dateIn('Pacific/Auckland', later) });
    const waiting = await insertWork(ctx.app.db, team, { dueDate: dateIn('Pacific/Auckland', later, -3), status: 'pending_approval' });
    const done = await insertWork(ctx.app.db, team, { dueDate: dateIn('Pacific/Auckland', later, -1), status: 'completed' });
    const closedProject = await insertWork(ctx.app.db, team, { dueDate: dateIn('Pacific/Auckland', later, -1), projectStatus: 'completed' });

    await sweep(ctx, later);
    for (const quiet of [dueToday, done, closedProject]) expect((await sentAbout(ctx, quiet.subtaskId)).filter((row) => row.type === 'task_overdue')).toEqual([]);
    // A day later the one due today is overdue too; the first is not reported again.
    await sweep(ctx, new Date(later.getTime() + 24 * HOUR));
    expect((await sentAbout(ctx, dueToday.subtaskId)).filter((row) => row.type === 'task_overdue')).toHaveLength(1);

    const names = await subtaskNames(ctx, overdue.subtaskId);
    const sent = (await sentAbout(ctx, overdue.subtaskId)).filter((row) => row.type === 'task_overdue');
    expect(sent).toEqual([
      {
        type: 'task_overdue',
        message: `'${names.name}' (${names.projectName}), assigned to ${team.member.email}, is overdue: it was due ${dateIn('Pacific/Auckland', later, -1)}`,
        createdBy: 'System',
        dedupeKey: `task_overdue:${overdue.subtaskId}:${dateIn('Pacific/Auckland', later, -1)}`,
        userId: team.manager.id,
      },
    ]);
    expect((await sentAbout(ctx, waiting.subtaskId)).filter((row) => row.type === 'task_overdue')).toHaveLength(1);
  });

  it("reports an overdue subtask once its due day is over on the manager's own calendar, not the company's", async () => {
    // A company on UTC; one project's manager lives in Kiritimati (UTC+14), another's in Los Angeles (UTC−7 in October).
    const ahead = await createTeam(ctx.app, { timezone: 'UTC' });
    const behind = await createTeam(ctx.app, { timezone: 'UTC' });
    await ctx.app.db.update(users).set({ timezone: 'Pacific/Kiritimati' }).where(eq(users.id, ahead.manager.id));
    await ctx.app.db.update(users).set({ timezone: 'America/Los_Angeles' }).where(eq(users.id, behind.manager.id));
    const overdueReports = async (subtaskId: number) => (await sentAbout(ctx, subtaskId)).filter((row) => row.type === 'task_overdue');

    // 12:00 UTC on 20 October: still the 20th in UTC, already 21 October, 02:00 in Kiritimati.
    const kiritimatiMorning = await insertWork(ctx.app.db, ahead, { dueDate: '2026-10-20' });
    await sweep(ctx, new Date('2026-10-20T12:00:00Z'));
    const names = await subtaskNames(ctx, kiritimatiMorning.subtaskId);
    expect(await overdueReports(kiritimatiMorning.subtaskId)).toEqual([
      {
        type: 'task_overdue',
        message: `'${names.name}' (${names.projectName}), assigned to ${ahead.member.email}, is overdue: it was due 2026-10-20`,
        createdBy: 'System',
        dedupeKey: `task_overdue:${kiritimatiMorning.subtaskId}:2026-10-20`,
        userId: ahead.manager.id,
      },
    ]);

    // 03:00 UTC on 21 October is 20:00 on the 20th in Los Angeles: the work is due today there, not overdue.
    const losAngelesEvening = await insertWork(ctx.app.db, behind, { dueDate: '2026-10-20' });
    await sweep(ctx, new Date('2026-10-21T03:00:00Z'));
    expect(await overdueReports(losAngelesEvening.subtaskId)).toEqual([]);
    // 08:00 UTC is past midnight there: now it is.
    await sweep(ctx, new Date('2026-10-21T08:00:00Z'));
    expect((await overdueReports(losAngelesEvening.subtaskId)).map((row) => [row.userId, row.dedupeKey])).toEqual([[behind.manager.id, `task_overdue:${losAngelesEvening.subtaskId}:2026-10-20`]]);
  });

  it('reminds a project’s manager once, from 18:00 in their zone, of a working day without a signed log', async () => {
    const zoned = await createTeam(ctx.app, { timezone: 'Europe/Berlin' });
    // Wednesday 2025-06-11; Berlin is UTC+2 in summer.
    const open = await insertProject(ctx.app.db, zoned.company.id, { managerId: zoned.manager.id, startDate: '2025-06-01', endDate: '2025-06-30', name: 'Рабочий проект' });
    const signed = await insertProject(ctx.app.db, zoned.company.id, { managerId: zoned.manager.id, startDate: '2025-06-01', endDate: '2025-06-30' });
    const closed = await insertProject(ctx.app.db, zoned.company.id, { managerId: zoned.manager.id, startDate: '2025-06-01', endDate: '2025-06-30', status: 'completed' });
    await ctx.app.db.insert(dailyLogs).values({ companyId: zoned.company.id, projectId: signed.id, logDate: '2025-06-11', status: 'signed', signedById: zoned.manager.id, signedAt: new Date() });
    // In the order of their days: without an order, PostgreSQL may give the rows in any (seen in CI).
    const sentTo = async (project: number) =>
      ctx.app.db
        .select({ key: notifications.dedupeKey, message: notifications.message })
        .from(notifications)
        .where(and(eq(notifications.type, 'daily_log_reminder'), sql`${notifications.dedupeKey} like ${`daily_log_reminder:${project}:%`}`))
        .orderBy(notifications.dedupeKey);

    await runDailyLogReminders(ctx.app.db, { now: new Date('2025-06-11T15:59:00Z') });
    expect(await sentTo(open.id)).toEqual([]);
    await runDailyLogReminders(ctx.app.db, { now: new Date('2025-06-11T16:00:00Z') });
    await runDailyLogReminders(ctx.app.db, { now: new Date('2025-06-11T21:00:00Z') });
    expect(await sentTo(open.id)).toEqual([{ key: `daily_log_reminder:${open.id}:2025-06-11`, message: 'The daily log of Рабочий проект for 2025-06-11 is not signed yet' }]);
    expect(await sentTo(signed.id)).toEqual([]);
    expect(await sentTo(closed.id)).toEqual([]);
    // Saturday: no work owed, no reminder; an hour of its own is honoured.
    await runDailyLogReminders(ctx.app.db, { now: new Date('2025-06-14T20:00:00Z') });
    expect((await sentTo(open.id)).map((row) => row.key)).toEqual([`daily_log_reminder:${open.id}:2025-06-11`]);
    await runDailyLogReminders(ctx.app.db, { now: new Date('2025-06-12T15:00:00Z'), localHour: 17 });
    expect((await sentTo(open.id)).map((row) => row.key)).toEqual([`daily_log_reminder:${open.id}:2025-06-11`, `daily_log_reminder:${open.id}:2025-06-12`]);

    const { access } = await loginAs(ctx.app, zoned.manager);
    await callAs(ctx.app, { ...zoned.manager, access }, { method: 'PATCH', url: '/api/profile/', payload: { language: 'de' } });
    const records = (await callAs(ctx.app, { ...zoned.manager, access }, { method: 'GET', url: '/api/notifications/' })).json() as NotificationRecord[];
    expect(records.map((record) => record.notification.type)).toContain('daily_log_reminder');
    expect(records.map((record) => record.notification.message)).toContain('Das Bautagebuch von Рабочий проект für 11.06.2025 ist noch nicht unterschrieben');
  });
});

describeEachDatabase('deadline reminders at the start of each person’s working day', (ctx) => {
  // One company in Paris with people at both ends of the clock: UTC+14 and UTC−11.
  let team: Team;
  let kiritimati: TestUser;
  let pagoPago: TestUser & { access: string };
  beforeAll(async () => {
    team = await createTeam(ctx.app, { timezone: 'Europe/Paris' });
    kiritimati = await createUser(ctx.app.db, team.company.id, 'team_member', { managerId: team.manager.id, timezone: 'Pacific/Kiritimati' });
    const pago = await createUser(ctx.app.db, team.company.id, 'team_member', { managerId: team.manager.id, timezone: 'Pacific/Pago_Pago', language: 'es' });
    pagoPago = { ...pago, access: (await loginAs(ctx.app, pago)).access };
  });

  it('reminds each at 07:00 of the eve in their own zone, once, whatever the company’s zone', async () => {
    const due = '2026-03-11';
    const work = await insertWork(ctx.app.db, team, { dueDate: due });
    const forKiritimati = await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: work.majorTaskId, assignedToId: kiritimati.id, assignedById: team.manager.id, dueDate: due });
    const forPagoPago = await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: work.majorTaskId, assignedToId: pagoPago.id, assignedById: team.manager.id, dueDate: due });
    const reminded = async () => ({
      kiritimati: (await sentAbout(ctx, forKiritimati.id)).map((row) => row.userId),
      paris: (await sentAbout(ctx, work.subtaskId)).map((row) => row.userId),
      pagoPago: (await sentAbout(ctx, forPagoPago.id)).map((row) => row.userId),
    });
    const at = (iso: string, reminderLocalHour?: number) => runSweeps(ctx.app.db, { now: new Date(iso), approvalDelayHours: DELAY_HOURS, reminderLocalHour });

    await at('2026-03-09T16:59:00Z'); // 06:59 on 10 March in Kiritimati
    expect(await reminded()).toEqual({ kiritimati: [], paris: [], pagoPago: [] });
    await at('2026-03-09T17:00:00Z'); // 07:00 in Kiritimati; 18:00 on 9 March in Paris
    expect(await reminded()).toEqual({ kiritimati: [kiritimati.id], paris: [], pagoPago: [] });
    await at('2026-03-10T06:00:00Z', 9); // 07:00 in Paris, but reminders start at 09:00 here
    expect(await reminded()).toEqual({ kiritimati: [kiritimati.id], paris: [], pagoPago: [] });
    await at('2026-03-10T06:00:00Z'); // 07:00 in Paris
    expect(await reminded()).toEqual({ kiritimati: [kiritimati.id], paris: [team.member.id], pagoPago: [] });
    await at('2026-03-10T17:59:00Z'); // 06:59 in Pago Pago; already the due day in Kiritimati
    expect(await reminded()).toEqual({ kiritimati: [kiritimati.id], paris: [team.member.id], pagoPago: [] });
    await at('2026-03-10T18:00:00Z'); // 07:00 on 10 March in Pago Pago
    await at('2026-03-10T23:00:00Z');
    await at('2026-03-11T12:00:00Z');
    expect(await reminded()).toEqual({ kiritimati: [kiritimati.id], paris: [team.member.id], pagoPago: [pagoPago.id] });

    const [record] = (await callAs(ctx.app, pagoPago, { method: 'GET', url: '/api/notifications/' })).json() as NotificationRecord[];
    const names = await subtaskNames(ctx, forPagoPago.id);
    expect(record!.notification.message).toBe(`«${names.name}» (${names.projectName}) se entrega mañana (11 mar 2026)`);
  });

  it('counts "due today" on each person’s own date', async () => {
    const now = new Date();
    // 25 hours apart: never the same date.
    const kiritimatiToday = dateIn('Pacific/Kiritimati', now);
    const pagoPagoToday = dateIn('Pacific/Pago_Pago', now);
    expect(kiritimatiToday).not.toBe(pagoPagoToday);
    const work = await insertWork(ctx.app.db, team, { dueDate: kiritimatiToday });
    const kiritimatiAccess = (await loginAs(ctx.app, kiritimati)).access;
    const dueOn = async (date: string, assignee: TestUser) =>
      (await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: work.majorTaskId, assignedToId: assignee.id, assignedById: team.manager.id, dueDate: date })).id;
    const kiritimatiDue = await dueOn(kiritimatiToday, kiritimati);
    await dueOn(pagoPagoToday, kiritimati);
    const pagoPagoDue = await dueOn(pagoPagoToday, pagoPago);
    await dueOn(kiritimatiToday, pagoPago);

    const forKiritimati = (await callAs(ctx.app, { ...kiritimati, access: kiritimatiAccess }, { method: 'GET', url: '/api/tasks-due-today/' })).json() as { id: number }[];
    const forPagoPago = (await callAs(ctx.app, pagoPago, { method: 'GET', url: '/api/tasks-due-today/' })).json() as { id: number }[];
    const summary = (await callAs(ctx.app, pagoPago, { method: 'GET', url: '/api/dashboard-summary/' })).json();

    expect(forKiritimati.map((row) => row.id)).toEqual([kiritimatiDue]);
    expect(forPagoPago.map((row) => row.id)).toEqual([pagoPagoDue]);
    expect(summary.due_today).toBe(1);
  });
});
