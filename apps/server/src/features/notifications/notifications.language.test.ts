import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationRecord } from '@siteboard/shared';
import { describeEachDatabase } from '../../test/build-app';
import { connectLive, listenLocally, livePath, type TestLiveClient } from '../../test/live-client';
import { callAs, createTeam, insertWork, type Caller, type Team } from '../../test/work-factories';
import { notificationText, params, textFor } from './notifications.rules';

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
    expect(notificationText('task_assignment', params.taskAssignment(team.manager, { name: 'Estrich verlegen', projectName }, '2099-03-05'), 'en')).toBe(
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
    expect(after[0]!.notification.message).toContain(' a validé « ');
    expect(after.map((record) => record.id)).toEqual(before.map((record) => record.id));
  });

  describe('people by name', () => {
    const rename = async (fullName: string | null) =>
      expect((await callAs(ctx.app, team.admin, { method: 'PATCH', url: `/api/users/${team.manager.id}/`, payload: { full_name: fullName } })).statusCode).toBe(200);
    const newestFor = async (caller: Caller) => ((await callAs(ctx.app, caller, { method: 'GET', url: '/api/notifications/' })).json() as NotificationRecord[])[0]!.notification;
    afterAll(() => rename(null));

    it('names the one who acted in every language, in the list and live; the e-mail stays in created_by', async () => {
      await rename('Jürgen Groß-Núñez');
      await readIn('en');
      const client = await connectLive(base, livePath(team.member, team.member.access));
      open.push(client);
      const work = await approveMemberWork();
      const subtask = (await callAs(ctx.app, team.manager, { method: 'GET', url: `/api/subtasks/${work.subtaskId}/` })).json();
      const task = { name: subtask.name as string, project: subtask.major_task.project.name as string };

      const live = await client.next();
      expect(live.message).toBe(`Jürgen Groß-Núñez approved '${task.name}' (${task.project})`);
      expect(live).toMatchObject({ created_by: team.manager.email, created_by_name: 'Jürgen Groß-Núñez' });
      const expected = {
        en: `Jürgen Groß-Núñez approved '${task.name}' (${task.project})`,
        es: `Jürgen Groß-Núñez aprobó «${task.name}» (${task.project})`,
        fr: `Jürgen Groß-Núñez a validé «\u00a0${task.name}\u00a0» (${task.project})`,
        de: `Jürgen Groß-Núñez hat „${task.name}“ (${task.project}) abgenommen`,
      };
      for (const [language, text] of Object.entries(expected)) {
        await readIn(language);
        expect(await newestFor(team.member)).toMatchObject({ message: text, created_by: team.manager.email, created_by_name: 'Jürgen Groß-Núñez' });
      }
    });

    it('shows the current name on notifications written before a rename, and the e-mail once there is no name', async () => {
      await rename('Anna Alt');
      await readIn('en');
      await approveMemberWork();
      expect((await newestFor(team.member)).message).toMatch(/^Anna Alt approved '/);

      await rename('Anna Neu-Übermuth');
      expect((await newestFor(team.member)).message).toMatch(/^Anna Neu-Übermuth approved '/);

      await rename(null);
      const fallback = await newestFor(team.member);
      expect(fallback.message.startsWith(`${team.manager.email} approved '`)).toBe(true);
      expect(fallback.created_by_name).toBeNull();
    });

    it('reads the list with every name in it in one statement, however many notifications it holds', async () => {
      await rename('Jürgen Groß-Núñez');
      // The member's open live connections load each notification after its commit: wait until both
      // have gone out, so the statements counted below are the list's own.
      const client = await connectLive(base, livePath(team.member, team.member.access));
      open.push(client);
      await approveMemberWork();
      await approveMemberWork();
      await client.next();
      await client.next();
      // And the jobs those approvals queued (their notification mails read notifications too).
      await ctx.app.jobs.idle();
      ctx.queries.length = 0;
      const list = await callAs(ctx.app, team.member, { method: 'GET', url: '/api/notifications/' });
      expect(list.statusCode).toBe(200);
      expect((list.json() as NotificationRecord[]).filter((record) => record.notification.created_by_name === 'Jürgen Groß-Núñez').length).toBeGreaterThanOrEqual(2);
      const read = ctx.queries.filter((query) => /notification/.test(query));
      expect(read, read.map((query) => query.slice(0, 120)).join('\n')).toHaveLength(1);
    });

    it('names the person a sweep’s notification is about (the assignee of an overdue task) by the name read with it', () => {
      const stored = { type: 'task_overdue', message: 'x', params: params.taskOverdue({ name: 'Pour', projectName: 'Pier' }, team.member, '2026-03-04'), personName: 'Élodie Marchand' };
      expect(textFor(stored, 'de')).toBe('„Pour“ (Pier), zugewiesen an Élodie Marchand, ist überfällig (fällig am 04.03.2026)');
      expect(textFor({ ...stored, personName: null }, 'en')).toBe(`'Pour' (Pier), assigned to ${team.member.email}, is overdue: it was due 2026-03-04`);
    });
  });
});
