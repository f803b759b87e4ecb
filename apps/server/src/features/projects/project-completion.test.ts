import { expect, it } from 'vitest';
import type { ActivityEntry, AppraisalItem, DashboardSummary, Project, Subtask } from '@siteboard/shared';
import { describeEachDatabase, type TestContext } from '../../test/build-app';
import { callAs, createTeam, insertSubtask, insertWork, listAs, type Caller, type Team } from '../../test/work-factories';
import { findApprovalDelayCandidates, findOverdueCandidates } from '../notifications/notifications.queries';

/**
 * A project of the team's manager with three subtasks the member sent for approval through the
 * API (one of them long overdue) and one still ongoing.
 */
async function projectWithOpenWork(ctx: TestContext, team: Team) {
  const work = await insertWork(ctx.app.db, team, { dueDate: '2020-01-10' });
  const more = [];
  for (let index = 0; index < 3; index++) more.push((await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: work.majorTaskId, assignedToId: team.member.id, assignedById: team.manager.id, dueDate: '2099-01-10' })).id);
  const pending = [work.subtaskId, ...more.slice(0, 2)];
  for (const id of pending) {
    const sent = await callAs(ctx.app, team.member, { method: 'PATCH', url: `/api/subtasks/${id}/`, payload: { status: 'pending_approval' } });
    expect(sent.statusCode, sent.body).toBe(200);
  }
  return { projectId: work.projectId, pending, ongoing: more[2]!, open: [...pending, more[2]!] };
}

const complete = (ctx: TestContext, caller: Caller, projectId: number, extra: object = {}) =>
  callAs(ctx.app, caller, { method: 'PATCH', url: `/api/projects/${projectId}/`, payload: { status: 'completed', ...extra } });

async function summaryOf(ctx: TestContext, caller: Caller): Promise<DashboardSummary> {
  return (await callAs(ctx.app, caller, { method: 'GET', url: '/api/dashboard-summary/' })).json();
}

const idsOf = (items: { id: number }[]) => items.map((item) => item.id).sort((a, b) => a - b);
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

async function subtaskOf(ctx: TestContext, team: Team, id: number): Promise<Subtask> {
  return (await callAs(ctx.app, team.manager, { method: 'GET', url: `/api/subtasks/${id}/` })).json();
}

async function appraisalOf(ctx: TestContext, team: Team): Promise<AppraisalItem> {
  const response = await callAs(ctx.app, team.admin, { method: 'GET', url: `/api/appraisal-report/?user_id=${team.member.id}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json()[0];
}

describeEachDatabase('completing a project with unfinished work (decision record 061)', (ctx) => {
  it('is refused with 409 saying how much is unfinished, lists that work, and changes nothing', async () => {
    const team = await createTeam(ctx.app);
    const { projectId, pending, open } = await projectWithOpenWork(ctx, team);

    for (const extra of [{}, { confirm_open_work: false }]) {
      const refused = await complete(ctx, team.admin, projectId, extra);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({ detail: '4 subtasks are unfinished. Completing the project approves nothing: it closes them as unfinished. Confirm to complete the project anyway.' });
    }
    expect((await callAs(ctx.app, team.admin, { method: 'PATCH', url: '/api/profile/', payload: { language: 'de' } })).statusCode).toBe(200);
    expect((await complete(ctx, team.admin, projectId)).json().detail).toMatch(/^4 Teilaufgaben sind unerledigt\./);

    const listed = await listAs<Subtask>(ctx.app, team.admin, `/api/projects/${projectId}/open-work/?limit=2`);
    expect(listed.total).toBe(4);
    expect(listed.items).toHaveLength(2);
    const all = await listAs<Subtask>(ctx.app, team.admin, `/api/projects/${projectId}/open-work/`);
    expect(idsOf(all.items)).toEqual(sorted(open));
    expect(all.items[0]).toMatchObject({ status: 'pending_approval', due_date: '2020-01-10', assigned_to: { id: team.member.id }, closed_unfinished_at: null });

    const project: Project = (await callAs(ctx.app, team.admin, { method: 'GET', url: `/api/projects/${projectId}/` })).json();
    expect(project.status).toBe('ongoing');
    expect(idsOf((await listAs<Subtask>(ctx.app, team.manager, '/api/pending-approvals/')).items)).toEqual(sorted(pending));
  });

  it('with confirm_open_work approves nothing: the work keeps its status, is closed unfinished, leaves every list and count, and is shown apart', async () => {
    const team = await createTeam(ctx.app);
    const { projectId, pending, ongoing, open } = await projectWithOpenWork(ctx, team);
    const elsewhere = await insertWork(ctx.app.db, team, { status: 'pending_approval' });
    const later = new Date(Date.now() + 60 * 60 * 1000);
    expect((await summaryOf(ctx, team.manager)).pending).toBe(4);
    expect((await summaryOf(ctx, team.member)).mine).toBe(5);
    // Overdue: the first of the project's and the one elsewhere (due 2026-06-30).
    expect((await appraisalOf(ctx, team)).overdue_tasks).toBe(2);

    const response = await complete(ctx, team.admin, projectId, { confirm_open_work: true });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ id: projectId, status: 'completed' });

    // Nothing became completed; each is closed unfinished with a line of history naming the admin.
    for (const id of open) {
      const subtask = await subtaskOf(ctx, team, id);
      expect(subtask.status).toBe(id === ongoing ? 'ongoing' : 'pending_approval');
      expect(subtask.completed_at).toBeNull();
      expect(Date.parse(subtask.closed_unfinished_at!)).toBeGreaterThan(Date.now() - 60_000);
      const history: ActivityEntry[] = (await callAs(ctx.app, team.manager, { method: 'GET', url: `/api/subtasks/${id}/activity/` })).json();
      expect(history.at(-1)).toMatchObject({ type: 'closed_unfinished', from: subtask.status, to: subtask.status, actor: { id: team.admin.id } });
      expect(history.some((entry) => entry.to === 'completed')).toBe(false);
    }

    // Gone from every to-do list and count.
    const managerPending = await listAs<Subtask>(ctx.app, team.manager, '/api/pending-approvals/');
    expect(managerPending.items.map((item) => item.id)).toEqual([elsewhere.subtaskId]);
    expect(managerPending.total).toBe(1);
    expect(idsOf((await listAs<Subtask>(ctx.app, team.member, '/api/subtasks/?assigned_to=me')).items)).toEqual([elsewhere.subtaskId]);
    expect((await listAs<Subtask>(ctx.app, team.member, '/api/subtasks/?assigned_to=me&status=ongoing')).items).toEqual([]);
    expect(await summaryOf(ctx, team.manager)).toMatchObject({ pending: 1 });
    expect(await summaryOf(ctx, team.member)).toMatchObject({ pending: 1, mine: 1 });
    expect((await findApprovalDelayCandidates(ctx.app.db, later, later, 100_000)).map((row) => row.id)).not.toEqual(expect.arrayContaining([pending[0]]));
    expect((await findOverdueCandidates(ctx.app.db, later, 100_000)).map((row) => row.id)).not.toContain(pending[0]);
    expect((await listAs<Subtask>(ctx.app, team.admin, `/api/projects/${projectId}/open-work/`)).items).toEqual([]);

    // The appraisal shows them apart: not completed, not ongoing or pending, not overdue.
    expect(await appraisalOf(ctx, team)).toMatchObject({ total_tasks: 5, completed_tasks: 0, ongoing_tasks: 0, pending_approval_tasks: 1, closed_unfinished_tasks: 4, overdue_tasks: 1 });
  });

  it('reopening the project reopens the work its completion closed, with a line of history', async () => {
    const team = await createTeam(ctx.app);
    const { projectId, ongoing, open } = await projectWithOpenWork(ctx, team);
    expect((await complete(ctx, team.admin, projectId, { confirm_open_work: true })).statusCode).toBe(200);

    const reopened = await callAs(ctx.app, team.admin, { method: 'PATCH', url: `/api/projects/${projectId}/`, payload: { status: 'ongoing' } });
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect(idsOf((await listAs<Subtask>(ctx.app, team.member, '/api/subtasks/?assigned_to=me')).items)).toEqual(sorted(open));
    expect((await subtaskOf(ctx, team, ongoing)).closed_unfinished_at).toBeNull();
    const history: ActivityEntry[] = (await callAs(ctx.app, team.member, { method: 'GET', url: `/api/subtasks/${ongoing}/activity/` })).json();
    expect(history.slice(-2).map((entry) => entry.type)).toEqual(['closed_unfinished', 'reopened']);
  });

  it('needs no confirmation when everything is completed, or when the project already is', async () => {
    const team = await createTeam(ctx.app);
    const work = await insertWork(ctx.app.db, team, { status: 'completed' });

    expect((await complete(ctx, team.admin, work.projectId)).statusCode).toBe(200);
    expect((await complete(ctx, team.admin, work.projectId)).statusCode).toBe(200);
    expect((await subtaskOf(ctx, team, work.subtaskId)).closed_unfinished_at).toBeNull();
  });

  it('refuses a manager before saying anything about the project (403), and another company gets 404', async () => {
    const team = await createTeam(ctx.app);
    const other = await createTeam(ctx.app);
    const { projectId } = await projectWithOpenWork(ctx, team);

    expect((await complete(ctx, team.manager, projectId, { confirm_open_work: true })).statusCode).toBe(403);
    expect((await complete(ctx, other.admin, projectId, { confirm_open_work: true })).statusCode).toBe(404);
    expect((await callAs(ctx.app, other.admin, { method: 'GET', url: `/api/projects/${projectId}/open-work/` })).statusCode).toBe(404);
    expect((await listAs<Subtask>(ctx.app, team.manager, '/api/pending-approvals/')).items).toHaveLength(3);
  });
});
