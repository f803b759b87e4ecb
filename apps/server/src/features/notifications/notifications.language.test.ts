import { afterAll, beforeAll, expect, it } from 'vitest';
import type { NotificationRecord } from '@siteboard/shared';
import { describeEachDatabase } from '../../test/build-app';
import { connectLive, listenLocally, livePath, type TestLiveClient } from '../../test/live-client';
import { callAs, createTeam, insertWork, type Team } from '../../test/work-factories';
import { notificationText, params } from './notifications.rules';

describeEachDatabase('notifications in the recipient’s language', (ctx) => {
  let base: string;
  let team: Team;
  const open: TestLiveClient[] = [];
  beforeAll(async () => {
    base = await listenLocally(ctx.app);
    team = await createTeam(ctx.app);
    // The manager works in English; the member reads Spanish, the other member German.
    expect((await callAs(ctx.app, team.member, { method: 'PATCH', url: '/api/profile/', payload: { language: 'es' } })).statusCode).toBe(200);
    expect((await callAs(ctx.app, team.otherMember, { method: 'PATCH', url: '/api/profile/', payload: { language: 'de' } })).statusCode).toBe(200);
  });
  afterAll(() => {
    for (const client of open) client.close();
  });
  /** The manager approves a new piece of the member's work: one notification for the member. */
  async function approveMemberWork() {
    const work = await insertWork(ctx.app.db, team, { status: 'pending_approval' });
    expect((await callAs(ctx.app, team.manager, { method: 'PATCH', url: `/api/subtasks/${work.subtaskId}/`, payload: { status: 'completed' } })).statusCode).toBe(200);
    return work;
  }
  const readIn = async (language: string) =>
    expect((await callAs(ctx.app, team.member, { method: 'PATCH', url: '/api/profile/', payload: { language } })).statusCode).toBe(200);

  it('an English manager’s approval reaches a Spanish member in Spanish: in the list and live', async () => {
    await readIn('es');
    const client = await connectLive(base, livePath(team.member, team.member.access));
    open.push(client);
    const work = await approveMemberWork();
    const subtask = (await callAs(ctx.app, team.manager, { method: 'GET', url: `/api/subtasks/${work.subtaskId}/` })).json();
    const live = await client.next();
    const list = await callAs(ctx.app, team.member, { method: 'GET', url: '/api/notifications/' });

    const spanish = `${team.manager.email} aprobó «${subtask.name}» (${subtask.major_task.project.name})`;
    expect(live.message).toBe(spanish);
    const [record] = list.json() as NotificationRecord[];
    expect(record!.notification).toMatchObject({ type: 'task_approved', message: spanish, created_by: team.manager.email });
    expect(list.headers['content-language']).toBe('es');
  });

  it('an assignment reaches a German member in German, its due date as Germans write it; the manager reads English', async () => {
    const client = await connectLive(base, livePath(team.otherMember, team.otherMember.access));
    open.push(client);
    const work = await insertWork(ctx.app.db, team, { status: 'ongoing' });

    const created = await callAs(ctx.app, team.manager, {
      method: 'POST',
      url: '/api/subtasks/',
      payload: { major_task: work.majorTaskId, name: 'Estrich verlegen', assigned_to_id: team.otherMember.id, due_date: '2099-03-05', priority: 'high' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const live = await client.next();
    const [record] = (await callAs(ctx.app, team.otherMember, { method: 'GET', url: '/api/notifications/' })).json() as NotificationRecord[];
    const projectName = created.json().major_task.project.name;

    const german = `${team.manager.email} hat Ihnen „Estrich verlegen“ (${projectName}) zugewiesen, fällig am 05.03.2099`;
    expect(live.message).toBe(german);
    expect(record!.notification.message).toBe(german);
    expect(notificationText('task_assignment', params.taskAssignment(team.manager.email, { name: 'Estrich verlegen', projectName }, '2099-03-05'), 'en')).toBe(
      `${team.manager.email} assigned you 'Estrich verlegen' (${projectName}), due 2099-03-05`,
    );
  });

  it('follows a change of language at once, for notifications already received', async () => {
    await readIn('es');
    await approveMemberWork();
    const before = (await callAs(ctx.app, team.member, { method: 'GET', url: '/api/notifications/' })).json() as NotificationRecord[];
    await readIn('fr');

    const after = (await callAs(ctx.app, team.member, { method: 'GET', url: '/api/notifications/' })).json() as NotificationRecord[];

    expect(before[0]!.notification.message).toContain(' aprobó «');
    expect(after[0]!.notification.message).toContain(' a validé « ');
    expect(after.map((record) => record.id)).toEqual(before.map((record) => record.id));
  });
});
