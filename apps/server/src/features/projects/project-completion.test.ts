import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { ActivityEntry, DashboardSummary, Project, Subtask } from '@siteboard/shared';
import { subtasks } from '../../schema/tasks';
import { describeEachDatabase, type TestContext } from '../../test/build-app';
import { callAs, createTeam, insertSubtask, insertWork, listAs, type Caller, type Team } from '../../test/work-factories';
import { findApprovalDelayCandidates } from '../notifications/notifications.queries';

/** A project of the team's manager with three subtasks the member sent for approval through the API, and one still ongoing. */
async function projectAwaitingApproval(ctx: TestContext, team: Team) {
  const work = await insertWork(ctx.app.db, team);
  const more = [];
  for (let index = 0; index < 3; index++) more.push((await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: work.majorTaskId, assignedToId: team.member.id, assignedById: team.manager.id })).id);
  const pending = [work.subtaskId, ...more.slice(0, 2)];
  for (const id of pending) {
    const sent = await callAs(ctx.app, team.member, { method: 'PATCH', url: `/api/subtasks/${id}/`, payload: { status: 'pending_approval' } });
    expect(sent.statusCode, sent.body).toBe(200);
  }
  return { projectId: work.projectId, pending, ongoing: more[2]! };
}

const complete = (ctx: TestContext, caller: Caller, projectId: number, extra: object = {}) =>
  callAs(ctx.app, caller, { method: 'PATCH', url: `/api/projects/${projectId}/`, payload: { status: 'completed', ...extra } });

async function summaryOf(ctx: TestContext, caller: Caller): Promise<DashboardSummary> {
  return (await callAs(ctx.app, caller, { method: 'GET', url: '/api/dashboard-summary/' })).json();
}

describeEachDatabase('completing a project with subtasks awaiting approval (decision record 030)', (ctx) => {
  it('is refused with 409 saying how many await approval, and changes nothing', async () => {
    const team = await createTeam(ctx.app);
    const { projectId, pending } = await projectAwaitingApproval(ctx, team);

    for (const extra of [{}, { confirm_open_work: false }]) {
      const refused = await complete(ctx, team.admin, projectId, extra);

      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({ detail: '3 subtasks await approval. Confirm to complete the project anyway.' });
    }
    const project: Project = (await callAs(ctx.app, team.admin, { method: 'GET', url: `/api/projects/${projectId}/` })).json();
    expect(project.status).toBe('ongoing');
    const { items } = await listAs<Subtask>(ctx.app, team.manager, '/api/pending-approvals/');
    expect(items.map((item) => item.id).sort()).toEqual([...pending].sort());
  });

  it('says "1 subtask awaits" for one', async () => {
    const team = await createTeam(ctx.app);
    const work = await insertWork(ctx.app.db, team);
    await callAs(ctx.app, team.member, { method: 'PATCH', url: `/api/subtasks/${work.subtaskId}/`, payload: { status: 'pending_approval' } });

    const refused = await complete(ctx, team.admin, work.projectId);

    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe('1 subtask awaits approval. Confirm to complete the project anyway.');

    expect((await callAs(ctx.app, team.admin, { method: 'PATCH', url: '/api/profile/', payload: { language: 'fr' } })).statusCode).toBe(200);
    const inFrench = await complete(ctx, team.admin, work.projectId);
    expect(inFrench.statusCode).toBe(409);
    expect(inFrench.json()).toEqual({ detail: '1 sous-tâche attend une validation. Confirmez pour terminer quand même le projet.' });
  });

  it('with confirm_open_work completes it, and its pending subtasks leave every pending list, count and sweep', async () => {
    const team = await createTeam(ctx.app);
    const { projectId, pending, ongoing } = await projectAwaitingApproval(ctx, team);
    const elsewhere = await insertWork(ctx.app.db, team, { status: 'pending_approval' });
    const later = new Date(Date.now() + 60 * 60 * 1000);
    expect((await findApprovalDelayCandidates(ctx.app.db, later, later, 100_000)).map((row) => row.id)).toEqual(expect.arrayContaining(pending));
    expect((await summaryOf(ctx, team.manager)).pending).toBe(4);

    const response = await complete(ctx, team.admin, projectId, { confirm_open_work: true });

    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ id: projectId, status: 'completed' });
    const managerPending = await listAs<Subtask>(ctx.app, team.manager, '/api/pending-approvals/');
    expect(managerPending.items.map((item) => item.id)).toEqual([elsewhere.subtaskId]);
    expect(managerPending.total).toBe(1);
    const memberPending = await listAs<Subtask>(ctx.app, team.member, '/api/subtasks/?assigned_to=me&status=pending_approval');
    expect(memberPending.items.map((item) => item.id)).toEqual([elsewhere.subtaskId]);
    expect((await summaryOf(ctx, team.manager)).pending).toBe(1);
    expect((await summaryOf(ctx, team.member)).pending).toBe(1);
    expect((await findApprovalDelayCandidates(ctx.app.db, later, later, 100_000)).map((row) => row.id)).not.toEqual(expect.arrayContaining([pending[0]]));
    // Closed as completed, each with a line of history naming the admin; open work stays as it was.
    const rows = await ctx.app.db.select({ id: subtasks.id, status: subtasks.status }).from(subtasks).where(eq(subtasks.majorTaskId, (await subtaskOf(ctx, team, ongoing)).major_task_id));
    expect(Object.fromEntries(rows.map((row) => [row.id, row.status]))).toEqual({ ...Object.fromEntries(pending.map((id) => [id, 'completed'])), [ongoing]: 'ongoing' });
    const history: ActivityEntry[] = (await callAs(ctx.app, team.manager, { method: 'GET', url: `/api/subtasks/${pending[0]}/activity/` })).json();
    expect(history.at(-1)).toMatchObject({ type: 'status_changed', from: 'pending_approval', to: 'completed', actor: { id: team.admin.id } });
  });

  it('needs no confirmation when nothing awaits approval (ongoing work stays open) or the project is already completed', async () => {
    const team = await createTeam(ctx.app);
    const work = await insertWork(ctx.app.db, team);

    expect((await complete(ctx, team.admin, work.projectId)).statusCode).toBe(200);
    expect((await complete(ctx, team.admin, work.projectId)).statusCode).toBe(200);
    expect((await subtaskOf(ctx, team, work.subtaskId)).status).toBe('ongoing');
  });

  it('refuses a manager before saying anything about the project (403), and another company gets 404', async () => {
    const team = await createTeam(ctx.app);
    const other = await createTeam(ctx.app);
    const { projectId } = await projectAwaitingApproval(ctx, team);

    expect((await complete(ctx, team.manager, projectId, { confirm_open_work: true })).statusCode).toBe(403);
    expect((await complete(ctx, other.admin, projectId, { confirm_open_work: true })).statusCode).toBe(404);
    expect((await listAs<Subtask>(ctx.app, team.manager, '/api/pending-approvals/')).items).toHaveLength(3);
  });
});

async function subtaskOf(ctx: TestContext, team: Team, id: number): Promise<Subtask> {
  return (await callAs(ctx.app, team.manager, { method: 'GET', url: `/api/subtasks/${id}/` })).json();
}
