import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { NotificationRecord, Subtask } from '@siteboard/shared';
import { notificationRecipients, notifications } from '../../schema/notifications';
import { describeEachDatabase, type TestContext } from '../../test/build-app';
import { callAs, createTeam, createTeamAndRival, insertWork, type Caller, type Team } from '../../test/work-factories';
import { insertNotifications, type NotificationDraft } from './notifications.queries';

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function listOf(ctx: TestContext, caller: Caller, query = ''): Promise<NotificationRecord[]> {
  const response = await callAs(ctx.app, caller, { method: 'GET', url: `/api/notifications/${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Every notification about a subtask, with who received it. */
async function notificationsAbout(ctx: TestContext, subtaskId: number) {
  return ctx.app.db
    .select({ type: notifications.type, message: notifications.message, createdBy: notifications.createdBy, userId: notificationRecipients.userId })
    .from(notifications)
    .innerJoin(notificationRecipients, eq(notificationRecipients.notificationId, notifications.id))
    .where(eq(notifications.subtaskId, subtaskId))
    .orderBy(notificationRecipients.userId);
}

function patchSubtask(ctx: TestContext, caller: Caller, id: number, payload: object) {
  return callAs(ctx.app, caller, { method: 'PATCH', url: `/api/subtasks/${id}/`, payload });
}

async function subtaskOf(ctx: TestContext, caller: Caller, id: number): Promise<Subtask> {
  const response = await callAs(ctx.app, caller, { method: 'GET', url: '/api/subtasks/' });
  return (response.json() as Subtask[]).find((subtask) => subtask.id === id)!;
}

const statementsTouchingNotifications = (ctx: TestContext) => ctx.queries.filter((query) => /"?notification/.test(query));

describeEachDatabase('notifications created with task changes', (ctx) => {
  let team: Team;
  beforeAll(async () => {
    team = await createTeam(ctx.app);
  });

  it('tells the assignee of a new subtask who assigned what, where and when; nobody when one assigns oneself', async () => {
    const work = await insertWork(ctx.app.db, team);

    const created = await callAs(ctx.app, team.manager, {
      method: 'POST',
      url: '/api/subtasks/',
      payload: { major_task: work.majorTaskId, name: 'Pour footing B', assigned_to_id: team.member.id, due_date: '2099-08-01' },
    });
    expect(created.statusCode).toBe(201);
    const subtask = created.json() as Subtask;
    const mine = await callAs(ctx.app, team.member, {
      method: 'POST',
      url: '/api/subtasks/',
      payload: { major_task: work.majorTaskId, name: 'My own note', assigned_to_id: team.member.id, due_date: '2099-08-01' },
    });
    expect(mine.statusCode).toBe(201);

    expect(await notificationsAbout(ctx, subtask.id)).toEqual([
      {
        type: 'task_assignment',
        message: `${team.manager.email} assigned you 'Pour footing B' (${subtask.major_task.project.name}), due 2099-08-01`,
        createdBy: team.manager.email,
        userId: team.member.id,
      },
    ]);
    expect(await notificationsAbout(ctx, (mine.json() as Subtask).id)).toEqual([]);
  });

  it('writes the notifications of a whole new major task in one statement', async () => {
    const work = await insertWork(ctx.app.db, team);
    const subtask = (name: string, assignee: Caller) => ({ name, assigned_to_id: assignee.id, due_date: '2026-09-01' });

    ctx.queries.length = 0;
    const response = await callAs(ctx.app, team.manager, {
      method: 'POST',
      url: '/api/major-tasks/',
      payload: { project_id: work.projectId, name: 'Roof', subtasks: [subtask('Trusses', team.member), subtask('Sheathing', team.otherMember), subtask('Inspect', team.manager)] },
    });

    expect(response.statusCode).toBe(201);
    expect(statementsTouchingNotifications(ctx)).toHaveLength(1);
    const ids = (response.json() as { subtasks: { id: number; name: string }[] }).subtasks;
    const byName = Object.fromEntries(await Promise.all(ids.map(async (row) => [row.name, (await notificationsAbout(ctx, row.id)).map((n) => n.userId)])));
    expect(byName).toEqual({ Trusses: [team.member.id], Sheathing: [team.otherMember.id], Inspect: [] });
  });

  it('tells the new assignee when a subtask is reassigned, and the one who had it that it is no longer theirs', async () => {
    const work = await insertWork(ctx.app.db, team);

    expect((await patchSubtask(ctx, team.manager, work.subtaskId, { assigned_to_id: team.otherMember.id })).statusCode).toBe(200);
    expect((await patchSubtask(ctx, team.manager, work.subtaskId, { assigned_to_id: team.otherMember.id, name: 'Same person' })).statusCode).toBe(200);

    const about = await notificationsAbout(ctx, work.subtaskId);
    expect(about.map((n) => [n.type, n.userId]).sort()).toEqual([
      ['task_assignment', team.otherMember.id],
      ['task_unassigned', team.member.id],
    ]);
    const record = (await listOf(ctx, team.member)).find((one) => one.notification.type === 'task_unassigned')!;
    expect(record.notification.created_by).toBe(team.manager.email);
    expect(record.notification.message).toMatch(new RegExp(`^${team.manager.email.replace(/[.+]/g, '\\$&')} took '[^']+' \\([^)]+\\) off your list: it is assigned to someone else$`));
  });

  it('sends a submission to the project manager and the assigner, each once, never to the submitter', async () => {
    const work = await insertWork(ctx.app.db, team, { assignedById: team.otherManager.id });
    const sameApprover = await insertWork(ctx.app.db, team);

    expect((await patchSubtask(ctx, team.member, work.subtaskId, { status: 'pending_approval' })).statusCode).toBe(200);
    expect((await patchSubtask(ctx, team.member, sameApprover.subtaskId, { status: 'pending_approval' })).statusCode).toBe(200);

    const subtask = await subtaskOf(ctx, team.member, work.subtaskId);
    const expected = `${team.member.email} sent '${subtask.name}' (${subtask.major_task.project.name}) for approval`;
    expect(await notificationsAbout(ctx, work.subtaskId)).toEqual(
      [team.manager.id, team.otherManager.id].sort((a, b) => a - b).map((userId) => ({ type: 'task_submission', message: expected, createdBy: team.member.email, userId })),
    );
    expect((await notificationsAbout(ctx, sameApprover.subtaskId)).map((n) => n.userId)).toEqual([team.manager.id]);
  });

  it('tells the assignee of an approval and of a decline, by name', async () => {
    const approved = await insertWork(ctx.app.db, team, { status: 'pending_approval' });
    const declined = await insertWork(ctx.app.db, team, { status: 'pending_approval' });

    expect((await patchSubtask(ctx, team.manager, approved.subtaskId, { status: 'completed' })).statusCode).toBe(200);
    expect((await patchSubtask(ctx, team.manager, declined.subtaskId, { status: 'ongoing' })).statusCode).toBe(200);

    const a = await subtaskOf(ctx, team.manager, approved.subtaskId);
    const d = await subtaskOf(ctx, team.manager, declined.subtaskId);
    expect(await notificationsAbout(ctx, approved.subtaskId)).toEqual([
      { type: 'task_approved', message: `${team.manager.email} approved '${a.name}' (${a.major_task.project.name})`, createdBy: team.manager.email, userId: team.member.id },
    ]);
    expect(await notificationsAbout(ctx, declined.subtaskId)).toEqual([
      {
        type: 'task_declined',
        message: `${team.manager.email} declined '${d.name}' (${d.major_task.project.name}); it is ongoing again`,
        createdBy: team.manager.email,
        userId: team.member.id,
      },
    ]);
  });

  it('announces nothing for the other moves of the manager’s dropdown', async () => {
    const work = await insertWork(ctx.app.db, team);

    expect((await patchSubtask(ctx, team.manager, work.subtaskId, { status: 'completed' })).statusCode).toBe(200);
    expect((await patchSubtask(ctx, team.manager, work.subtaskId, { status: 'ongoing' })).statusCode).toBe(200);

    expect(await notificationsAbout(ctx, work.subtaskId)).toEqual([]);
  });

  it('adds two statements to a change that notifies, whatever it notifies', async () => {
    const quiet = await insertWork(ctx.app.db, team, { status: 'pending_approval' });
    const loud = await insertWork(ctx.app.db, team, { status: 'pending_approval' });

    ctx.queries.length = 0;
    expect((await patchSubtask(ctx, team.manager, quiet.subtaskId, { priority: 'high' })).statusCode).toBe(200);
    const withoutNotification = ctx.queries.length;
    ctx.queries.length = 0;
    expect((await patchSubtask(ctx, team.manager, loud.subtaskId, { status: 'completed' })).statusCode).toBe(200);
    const withNotification = ctx.queries.length;

    if (process.env.SHOW_STATEMENT_COUNTS) console.info(`PATCH /api/subtasks/{id}/: ${withoutNotification} statements, ${withNotification} when it approves (and notifies)`);
    expect(withNotification - withoutNotification).toBe(2);
  });
});

describeEachDatabase('GET /api/notifications/ and PATCH /api/notifications/mark-read/', (ctx) => {
  let team: Team, rival: Team;
  beforeAll(async () => ([team, rival] = await createTeamAndRival(ctx.app)));

  /** Writes notifications straight away, `count` of them for each of these users. */
  async function seed(users: Caller[], count: number, type: NotificationDraft['type'] = 'deadline_reminder') {
    const drafts: NotificationDraft[] = users.flatMap((user) =>
      Array.from({ length: count }, (_, i) => ({ companyId: user.companyId, type, params: { task: `seeded ${i}`, project: 'Seeded' }, createdBy: 'System', subtaskId: null, dedupeKey: null, recipients: [user.id] })),
    );
    await ctx.app.db.transaction((tx) => insertNotifications(tx, drafts));
  }

  it('lists what was created while the user was away, unread and newest first, in the documented shape', async () => {
    const fresh = await createTeam(ctx.app);
    const work = await insertWork(ctx.app.db, fresh, { status: 'pending_approval' });
    const second = await insertWork(ctx.app.db, fresh, { status: 'pending_approval' });
    expect((await patchSubtask(ctx, fresh.manager, work.subtaskId, { status: 'ongoing' })).statusCode).toBe(200);
    expect((await patchSubtask(ctx, fresh.manager, second.subtaskId, { status: 'completed' })).statusCode).toBe(200);

    const list = await listOf(ctx, fresh.member);

    expect(list).toEqual([
      {
        id: expect.any(Number),
        is_read: false,
        created_at: expect.stringMatching(ISO_TIMESTAMP),
        subtask_id: second.subtaskId,
        notification: { type: 'task_approved', message: expect.stringContaining('approved'), created_by: fresh.manager.email, created_by_name: null, created_at: expect.stringMatching(ISO_TIMESTAMP) },
      },
      {
        id: expect.any(Number),
        is_read: false,
        created_at: expect.stringMatching(ISO_TIMESTAMP),
        subtask_id: work.subtaskId,
        notification: { type: 'task_declined', message: expect.stringContaining('declined'), created_by: fresh.manager.email, created_by_name: null, created_at: expect.stringMatching(ISO_TIMESTAMP) },
      },
    ]);
    expect(list[0]!.id).toBeGreaterThan(list[1]!.id);
  });

  it("accepts the caller's own e-mail in any case and refuses anyone else's: a colleague's 403, another company's or no one's 404", async () => {
    await seed([team.otherMember], 1);

    expect(await listOf(ctx, team.otherMember, `?email=${encodeURIComponent(team.otherMember.email.toUpperCase())}`)).toHaveLength(1);
    const refusal = async (email: string, rest = '') => {
      const response = await callAs(ctx.app, team.otherMember, { method: 'GET', url: `/api/notifications/?email=${encodeURIComponent(email)}${rest}` });
      return [response.statusCode, response.json()];
    };
    // Asked before the rest of the query is read: a bad limit beside it changes nothing (authorisation before validation).
    for (const rest of ['', '&limit=0']) {
      expect(await refusal(team.member.email, rest), rest).toEqual([403, { detail: 'You may only read your own notifications.' }]);
      for (const email of [rival.otherMember.email, 'nobody@example.test']) expect(await refusal(email, rest), `${email}${rest}`).toEqual([404, { detail: 'User not found.' }]);
    }
  });

  it('refuses a caller without a token', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/notifications/' })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'PATCH', url: '/api/notifications/mark-read/' })).statusCode).toBe(401);
  });

  it('answers the newest 200 by default, up to 500 on request, in one statement however many there are', async () => {
    const caller = (await createTeam(ctx.app)).manager;
    await seed([caller], 3);
    // After a first request the caller's identity is checked from memory: only the list's statements count.
    await listOf(ctx, caller, '?limit=1');
    ctx.queries.length = 0;
    expect(await listOf(ctx, caller)).toHaveLength(3);
    const fewStatements = ctx.queries.length;

    await seed([caller], 600);
    ctx.queries.length = 0;
    const list = await listOf(ctx, caller);
    expect(ctx.queries.length).toBe(fewStatements);
    expect(fewStatements).toBe(1);
    expect(list).toHaveLength(200);
    expect(list.map((record) => record.id)).toEqual([...list.map((record) => record.id)].sort((a, b) => b - a));
    expect(await listOf(ctx, caller, '?limit=500')).toHaveLength(500);
    expect(await listOf(ctx, caller, '?limit=5')).toHaveLength(5);
    for (const limit of ['501', '0', 'many']) {
      expect((await callAs(ctx.app, caller, { method: 'GET', url: `/api/notifications/?limit=${limit}` })).statusCode, limit).toBe(400);
    }
  });

  it("marks read only the given ids that are the caller's; others' rows stay as they were", async () => {
    const me = (await createTeam(ctx.app)).member;
    await seed([me, team.member, rival.member], 2);
    const mine = await listOf(ctx, me);
    const theirs = [...(await listOf(ctx, team.member)), ...(await listOf(ctx, rival.member))];

    const response = await callAs(ctx.app, me, { method: 'PATCH', url: '/api/notifications/mark-read/', payload: { ids: [mine[0]!.id, ...theirs.map((record) => record.id)] } });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ updated: 1 });
    expect((await listOf(ctx, me)).map((record) => record.is_read)).toEqual([true, false]);
    expect((await listOf(ctx, team.member)).every((record) => !record.is_read)).toBe(true);
    expect((await listOf(ctx, rival.member)).every((record) => !record.is_read)).toBe(true);
    // Already read: nothing changes the second time.
    expect((await callAs(ctx.app, me, { method: 'PATCH', url: '/api/notifications/mark-read/', payload: { ids: [mine[0]!.id] } })).json()).toEqual({ updated: 0 });
  });

  describe('without ids', () => {
    it.each([
      ['no body', {}],
      ['an empty object', { payload: {} }],
    ])("marks all the caller's unread notifications read (%s)", async (_label, body) => {
      const me = (await createTeam(ctx.app)).member;
      await seed([me], 3);
      await seed([team.member], 1);
      const othersBefore = await listOf(ctx, team.member);

      const response = await callAs(ctx.app, me, { method: 'PATCH', url: '/api/notifications/mark-read/', ...body });

      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ updated: 3 });
      expect((await listOf(ctx, me)).every((record) => record.is_read)).toBe(true);
      expect(await listOf(ctx, team.member)).toEqual(othersBefore);
    });
  });

  it('marks all read up to the newest one the reader saw: one that arrived meanwhile stays unread', async () => {
    const me = (await createTeam(ctx.app)).member;
    await seed([me], 2);
    const seen = await listOf(ctx, me);
    await seed([me], 1);

    const response = await callAs(ctx.app, me, { method: 'PATCH', url: '/api/notifications/mark-read/', payload: { up_to_id: Math.max(...seen.map((record) => record.id)) } });

    expect(response.json()).toEqual({ updated: 2 });
    const now = await listOf(ctx, me);
    expect(now.filter((record) => !record.is_read).map((record) => record.id)).toEqual(now.filter((record) => !seen.some((old) => old.id === record.id)).map((record) => record.id));
    expect(now.filter((record) => !record.is_read)).toHaveLength(1);
    expect((await callAs(ctx.app, me, { method: 'PATCH', url: '/api/notifications/mark-read/', payload: { up_to_id: 'newest' } })).statusCode).toBe(400);
  });

  it('marks nothing read when the body says something else than ids (a misspelt "ids" is not "all")', async () => {
    const me = (await createTeam(ctx.app)).member;
    await seed([me], 2);
    for (const payload of [{ idz: [1] }, { ids: [1], all: true }, { id: 1 }]) {
      const response = await callAs(ctx.app, me, { method: 'PATCH', url: '/api/notifications/mark-read/', payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().detail).toBe('The request body is not valid: Send the ids to mark read, or nothing to mark them all read.');
    }
    expect((await listOf(ctx, me)).some((record) => record.is_read)).toBe(false);
  });

  it('refuses ids that are not ids', async () => {
    for (const payload of [{ ids: 'all' }, { ids: [0] }, { ids: ['x'] }, { ids: [1.5] }]) {
      const response = await callAs(ctx.app, team.member, { method: 'PATCH', url: '/api/notifications/mark-read/', payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it('serves every role, an admin included', async () => {
    expect(await listOf(ctx, team.admin)).toEqual([]);
    const response = await callAs(ctx.app, team.admin, { method: 'PATCH', url: '/api/notifications/mark-read/', payload: {} });
    expect(response.json()).toEqual({ updated: 0 });
  });
});
