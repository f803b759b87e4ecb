import { describe, expect, it } from 'vitest';
import type { DashboardSummary } from '@siteboard/shared';
import { describeEachDatabase } from '../../test/build-app';
import { callAs, createTeam, insertWork, listAs, type Caller } from '../../test/work-factories';

const todayUtc = () => new Date().toISOString().slice(0, 10);

describeEachDatabase('GET /api/dashboard-summary/', (ctx) => {
  /** What each card's list reports as its total, asked the way the dashboard's tables ask. */
  async function listTotals(caller: Caller, pendingUrl: string) {
    const total = async (url: string) => (await listAs(ctx.app, caller, `${url}${url.includes('?') ? '&' : '?'}limit=1`)).total;
    return {
      ongoing_projects: await total('/api/projects/?status=planned,ongoing'),
      due_today: await total('/api/tasks-due-today/'),
      pending: await total(pendingUrl),
      mine: await total('/api/subtasks/?assigned_to=me'),
    };
  }

  async function summaryOf(caller: Caller): Promise<DashboardSummary> {
    const response = await callAs(ctx.app, caller, { method: 'GET', url: '/api/dashboard-summary/' });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  describe('for a manager and a team member with work in every state', () => {
    it('counts what each card’s list holds, one request for all the cards', async () => {
      const team = await createTeam(ctx.app);
      await insertWork(ctx.app.db, team, { status: 'pending_approval' });
      await insertWork(ctx.app.db, team, { status: 'ongoing', dueDate: todayUtc() });
      await insertWork(ctx.app.db, team, { status: 'completed', projectStatus: 'completed' });
      await insertWork(ctx.app.db, team, { status: 'pending_approval', projectManagerId: team.otherManager.id, assignedById: team.otherManager.id });

      const manager = await summaryOf(team.manager);
      const member = await summaryOf(team.member);

      expect(manager).toEqual(await listTotals(team.manager, '/api/pending-approvals/'));
      expect(member).toEqual(await listTotals(team.member, '/api/subtasks/?assigned_to=me&status=pending_approval'));
      expect(member).toMatchObject({ ongoing_projects: 3, due_today: 1, pending: 2, mine: 4 });
      expect(manager).toMatchObject({ pending: 1, mine: 0 });
    });
  });

  it('refuses an anonymous caller', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/dashboard-summary/' })).statusCode).toBe(401);
  });

  it('counts only the caller’s company', async () => {
    const team = await createTeam(ctx.app);
    const stranger = await createTeam(ctx.app);
    await insertWork(ctx.app.db, stranger, { status: 'pending_approval' });

    expect(await summaryOf(team.member)).toEqual({ ongoing_projects: 0, due_today: 0, pending: 0, mine: 0 });
  });
});
