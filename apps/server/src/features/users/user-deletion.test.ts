import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { invitations } from '../../schema/invitations';
import type { ActivityEntry, Subtask, User } from '@siteboard/shared';
import { describeEachDatabase, type TestContext } from '../../test/build-app';
import { createUser, loginAs } from '../../test/factories';
import { callAs, createTeam, insertSubtask, insertWork, listAs, type Team } from '../../test/work-factories';

const remove = (ctx: TestContext, team: Team, userId: number, query = '') => callAs(ctx.app, team.admin, { method: 'DELETE', url: `/api/users/${userId}/${query}` });
const subtaskOf = async (ctx: TestContext, team: Team, id: number): Promise<Subtask> => (await callAs(ctx.app, team.admin, { method: 'GET', url: `/api/subtasks/${id}/` })).json();
const activeIds = async (ctx: TestContext, team: Team) => (await listAs<User>(ctx.app, team.admin, '/api/users/')).items.map((user) => user.id);

describeEachDatabase('deleting a user with open work', (ctx) => {
  it('tells the admin beforehand what the deletion would touch: open subtasks, and a manager’s team', async () => {
    const team = await createTeam(ctx.app);
    const other = await createTeam(ctx.app);
    const work = await insertWork(ctx.app.db, team);
    await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: work.majorTaskId, assignedToId: team.member.id, status: 'pending_approval' });
    await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: work.majorTaskId, assignedToId: team.member.id, status: 'completed' });
    const finished = await insertWork(ctx.app.db, team, { projectStatus: 'completed' });
    await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: finished.majorTaskId, assignedToId: team.member.id });
    const openWork = (userId: number) => callAs(ctx.app, team.admin, { method: 'GET', url: `/api/users/${userId}/open-work/` });

    // The work's own subtask; not the one sent for approval (done, theirs), the completed one, nor the one in a completed project.
    expect((await openWork(team.member.id)).json()).toEqual({ open_subtasks: 1, awaiting_approval: 1, team_members: 0 });
    const manager = await openWork(team.manager.id);
    expect(manager.json()).toEqual({ open_subtasks: 0, awaiting_approval: 0, team_members: 1 });
    // What the deletion then says matches.
    expect((await remove(ctx, team, team.manager.id)).json()).toEqual({ detail: "Reassign this manager's team members before deleting them." });
    expect((await remove(ctx, team, team.member.id)).json()).toEqual({ detail: 'This user has 1 open subtask. Choose who takes over their work (reassign_to) to delete them.' });
    // Another company's user, a deleted one and an unknown id are not found.
    const gone = await createUser(ctx.app.db, team.company.id, 'team_member', { managerId: team.manager.id });
    expect((await remove(ctx, team, gone.id)).statusCode).toBe(204);
    for (const id of [other.member.id, gone.id, 999_999]) expect((await openWork(id)).statusCode, String(id)).toBe(404);
  });

  it("keeps a manager whose team someone was invited to until that invitation is revoked: it could never be accepted", async () => {
    const team = await createTeam(ctx.app);
    const manager = await createUser(ctx.app.db, team.company.id, 'manager');
    const [invitation] = await ctx.app.db
      .insert(invitations)
      .values({ companyId: team.company.id, email: 'new.hand@example.test', role: 'team_member', managerId: manager.id, tokenHash: `hash-${manager.id}`, expiresAt: new Date(Date.now() + 86_400_000) })
      .returning({ id: invitations.id });

    const refused = await remove(ctx, team, manager.id);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ detail: "Invitations to this manager's team are still open: revoke them (and invite those people to another manager) before deleting them." });
    expect(await activeIds(ctx, team)).toContain(manager.id);

    await ctx.app.db.update(invitations).set({ revokedAt: new Date() }).where(eq(invitations.id, invitation!.id));
    expect((await remove(ctx, team, manager.id)).statusCode).toBe(204);
  });

  it('is refused with 409 counting their open subtasks when nobody takes them over, and changes nothing', async () => {
    const team = await createTeam(ctx.app);
    const first = await insertWork(ctx.app.db, team);
    await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: first.majorTaskId, assignedToId: team.member.id });
    await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: first.majorTaskId, assignedToId: team.member.id, status: 'completed' });
    await insertWork(ctx.app.db, team, { projectStatus: 'completed' });

    const refused = await remove(ctx, team, team.member.id);

    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ detail: 'This user has 2 open subtasks. Choose who takes over their work (reassign_to) to delete them.' });
    expect(await activeIds(ctx, team)).toContain(team.member.id);
    expect((await callAs(ctx.app, team.member, { method: 'GET', url: '/api/profile/' })).statusCode).toBe(200);
  });

  it('with reassign_to hands every open subtask over in the same step, with history, and deletes the user; work sent for approval stays theirs', async () => {
    const team = await createTeam(ctx.app);
    const ongoing = await insertWork(ctx.app.db, team);
    const pending = await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: ongoing.majorTaskId, assignedToId: team.member.id, status: 'pending_approval' });
    const done = await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: ongoing.majorTaskId, assignedToId: team.member.id, status: 'completed' });

    const response = await remove(ctx, team, team.member.id, `?reassign_to=${team.manager.id}`);

    expect(response.statusCode, response.body).toBe(204);
    expect(await activeIds(ctx, team)).not.toContain(team.member.id);
    const subtask = await subtaskOf(ctx, team, ongoing.subtaskId);
    expect(subtask).toMatchObject({ assigned_to_id: team.manager.id, assigned_to: { id: team.manager.id, email: team.manager.email }, assignee_left: false });
    const history: ActivityEntry[] = (await callAs(ctx.app, team.admin, { method: 'GET', url: `/api/subtasks/${ongoing.subtaskId}/activity/` })).json();
    expect(history.at(-1)).toMatchObject({ type: 'edited', actor: { id: team.admin.id }, changes: { assigned_to: { from: { id: team.member.id }, to: { id: team.manager.id } } } });
    // Work they sent for approval, and finished work, keep naming who did it, marked as someone who left:
    // the manager approves it to their credit (not the heir's), or declines it and hands it on.
    expect(await subtaskOf(ctx, team, pending.id)).toMatchObject({ status: 'pending_approval', assigned_to_id: team.member.id, assignee_left: true });
    expect(await subtaskOf(ctx, team, done.id)).toMatchObject({ assigned_to_id: team.member.id, assignee_left: true });
    const managerWork = await listAs<Subtask>(ctx.app, team.manager, '/api/subtasks/?assigned_to=me');
    expect(managerWork.items.map((item) => item.id)).toEqual([ongoing.subtaskId]);
    const approved = await callAs(ctx.app, team.manager, { method: 'PATCH', url: `/api/subtasks/${pending.id}/`, payload: { status: 'completed' } });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'completed', assigned_to_id: team.member.id });
  });

  it('refuses as heir the user themselves, an admin or a deleted user (400), another company’s user or none (404), and changes nothing', async () => {
    const team = await createTeam(ctx.app);
    const other = await createTeam(ctx.app);
    const work = await insertWork(ctx.app.db, team);
    const gone = await createUser(ctx.app.db, team.company.id, 'team_member', { managerId: team.manager.id });
    expect((await remove(ctx, team, gone.id)).statusCode).toBe(204);

    for (const heir of [team.member.id, team.admin.id, gone.id]) {
      const refused = await remove(ctx, team, team.member.id, `?reassign_to=${heir}`);

      expect(refused.statusCode, String(heir)).toBe(400);
      expect(refused.json().errors).toEqual({ reassign_to: ['Choose another active manager or team member of your company to take over the work.'] });
    }
    // Another company's person is not found, as in a path or a list's filter (decision record 120).
    for (const heir of [other.member.id, 999_999]) {
      const refused = await remove(ctx, team, team.member.id, `?reassign_to=${heir}`);
      expect(refused.statusCode, String(heir)).toBe(404);
      expect(refused.json()).toEqual({ detail: 'User not found.' });
    }
    expect((await remove(ctx, team, team.member.id, '?reassign_to=abc')).statusCode).toBe(400);
    expect(await subtaskOf(ctx, team, work.subtaskId)).toMatchObject({ assigned_to_id: team.member.id, assignee_left: false });
    expect(await activeIds(ctx, team)).toContain(team.member.id);
  });

  it('needs no heir without open work; work left in a completed project is marked as its assignee’s who left', async () => {
    const team = await createTeam(ctx.app);
    const closed = await insertWork(ctx.app.db, team, { projectStatus: 'completed' });

    expect((await remove(ctx, team, team.member.id)).statusCode).toBe(204);
    expect(await subtaskOf(ctx, team, closed.subtaskId)).toMatchObject({ status: 'ongoing', assigned_to_id: team.member.id, assignee_left: true });
  });

  it('keeps the authorization matrix: managers and members 403, another company 404, even with reassign_to', async () => {
    const team = await createTeam(ctx.app);
    const other = await createTeam(ctx.app);
    await insertWork(ctx.app.db, team);

    for (const caller of [team.manager, team.member]) {
      expect((await callAs(ctx.app, caller, { method: 'DELETE', url: `/api/users/${team.otherMember.id}/?reassign_to=${team.manager.id}` })).statusCode).toBe(403);
    }
    expect((await callAs(ctx.app, other.admin, { method: 'DELETE', url: `/api/users/${team.member.id}/?reassign_to=${other.manager.id}` })).statusCode).toBe(404);
    expect(await activeIds(ctx, team)).toEqual(expect.arrayContaining([team.member.id, team.otherMember.id]));
  });
});

describeEachDatabase('deleting a user with open work, in the reader’s language', (ctx) => {
  const GERMAN_REFUSAL = 'Dieser Benutzer hat 2 offene Teilaufgaben. Wählen Sie, wer seine Arbeit übernimmt (reassign_to), um ihn zu löschen.';
  const setLanguage = async (team: Team, language: string) =>
    expect((await callAs(ctx.app, team.admin, { method: 'PATCH', url: '/api/profile/', payload: { language } })).statusCode).toBe(200);
  const teamWithTwoOpenSubtasks = async () => {
    const team = await createTeam(ctx.app);
    const work = await insertWork(ctx.app.db, team);
    await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: work.majorTaskId, assignedToId: team.member.id });
    return team;
  };

  it('answers an English-speaking admin in English even when the browser asks for German: a signed-in user’s own language wins (decision 032)', async () => {
    const team = await teamWithTwoOpenSubtasks();

    const refused = await callAs(ctx.app, team.admin, { method: 'DELETE', url: `/api/users/${team.member.id}/`, headers: { 'accept-language': 'de-DE,de;q=0.9' } });

    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ detail: 'This user has 2 open subtasks. Choose who takes over their work (reassign_to) to delete them.' });
    expect(refused.headers['content-language']).toBe('en');
    expect(await activeIds(ctx, team)).toContain(team.member.id);
  });

  it('answers the 409 and a refused heir in the signed-in admin’s own language, whatever the browser asks for', async () => {
    const team = await teamWithTwoOpenSubtasks();
    await setLanguage(team, 'de');

    const refused = await remove(ctx, team, team.member.id);
    const browserSaysFrench = await callAs(ctx.app, team.admin, { method: 'DELETE', url: `/api/users/${team.member.id}/`, headers: { 'accept-language': 'fr' } });
    const badHeir = await remove(ctx, team, team.member.id, `?reassign_to=${team.admin.id}`);

    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ detail: GERMAN_REFUSAL });
    expect(refused.headers['content-language']).toBe('de');
    expect(browserSaysFrench.json()).toEqual({ detail: GERMAN_REFUSAL });
    expect(badHeir.statusCode).toBe(400);
    expect(badHeir.json()).toEqual({
      detail: 'Wählen Sie einen anderen aktiven Bauleiter oder ein anderes aktives Teammitglied Ihrer Firma, das die Arbeit übernimmt.',
      errors: { reassign_to: ['Wählen Sie einen anderen aktiven Bauleiter oder ein anderes aktives Teammitglied Ihrer Firma, das die Arbeit übernimmt.'] },
    });

    await setLanguage(team, 'es');
    expect((await remove(ctx, team, team.member.id)).json()).toEqual({
      detail: 'Esta persona tiene 2 subtareas pendientes. Elige quién se hace cargo de su trabajo (reassign_to) para eliminar su cuenta.',
    });
    expect(await activeIds(ctx, team)).toContain(team.member.id);
  });
});

describeEachDatabase('full names', (ctx) => {
  it('are optional, trimmed, at most 120 characters, and shown in user, team and subtask answers', async () => {
    const team = await createTeam(ctx.app);
    const work = await insertWork(ctx.app.db, team);
    const edit = (payload: object) => callAs(ctx.app, team.admin, { method: 'PATCH', url: `/api/users/${team.member.id}/`, payload });

    const named = await edit({ full_name: '  Rosa Díaz  ' });
    expect(named.statusCode, named.body).toBe(200);
    expect(named.json()).toMatchObject({ id: team.member.id, full_name: 'Rosa Díaz' });
    const tooLong = await edit({ full_name: 'x'.repeat(121) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().errors).toEqual({ full_name: ['Full name must be at most 120 characters.'] });

    const member = (await callAs(ctx.app, team.member, { method: 'GET', url: '/api/profile/' })).json() as User;
    expect(member.full_name).toBe('Rosa Díaz');
    expect((await listAs<User>(ctx.app, team.manager, '/api/users/')).items.find((user) => user.id === team.member.id)?.full_name).toBe('Rosa Díaz');
    const records = (await listAs<{ user: { id: number; full_name: string | null } }>(ctx.app, team.admin, '/api/team-members/')).items;
    expect(records.find((record) => record.user.id === team.member.id)?.user.full_name).toBe('Rosa Díaz');
    expect((await subtaskOf(ctx, team, work.subtaskId)).assigned_to).toEqual({ id: team.member.id, email: team.member.email, full_name: 'Rosa Díaz' });

    expect((await edit({ full_name: '   ' })).json().full_name).toBeNull();
    const { access } = await loginAs(ctx.app, team.admin);
    const created = await callAs(ctx.app, { ...team.admin, access }, {
      method: 'POST',
      url: '/api/users/',
      payload: { email: `named-${team.company.id}@example.test`, password: 'long enough pass', role: 'manager', full_name: 'Ana Ruiz' },
    });
    expect(created.json()).toMatchObject({ full_name: 'Ana Ruiz' });
  });
});
