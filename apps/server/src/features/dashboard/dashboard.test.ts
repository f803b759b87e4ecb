import { describe, expect, it } from 'vitest';
import type { AdminDashboard, DashboardSummary, MissingLogs, Project, User } from '@siteboard/shared';
import { describeEachDatabase } from '../../test/build-app';
import { callAs, createTeam, insertProject, insertWork, listAs, type Caller } from '../../test/work-factories';

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

describeEachDatabase('GET /api/admin-dashboard/', (ctx) => {
  async function dashboardOf(caller: Caller): Promise<AdminDashboard> {
    const response = await callAs(ctx.app, caller, { method: 'GET', url: '/api/admin-dashboard/' });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  it('answers the first page of every list the dashboard shows, exactly as the list calls do', async () => {
    const team = await createTeam(ctx.app);
    await insertWork(ctx.app.db, team, { status: 'ongoing' });
    await insertWork(ctx.app.db, team, { status: 'completed', projectStatus: 'completed' });
    for (let i = 0; i < 11; i++) await insertProject(ctx.app.db, team.company.id, { name: `Tower ${i}`, managerId: team.manager.id });

    const dashboard = await dashboardOf(team.admin);

    const users = await listAs<User>(ctx.app, team.admin, '/api/users/?limit=50');
    const managers = await listAs<User>(ctx.app, team.admin, '/api/users/?role=manager&limit=200');
    const ongoing = await listAs<Project>(ctx.app, team.admin, '/api/projects/?status=planned,ongoing&order=newest&limit=10');
    const completed = await listAs<Project>(ctx.app, team.admin, '/api/projects/?status=completed&order=newest&limit=10');
    const missing = await listAs<MissingLogs>(ctx.app, team.admin, '/api/daily-logs/missing/?days=14&limit=100');
    expect(dashboard).toEqual({
      users,
      managers: managers.items,
      ongoing_projects: ongoing,
      completed_projects: completed,
      missing_logs: missing,
    });
    // The five people of the team; twelve open projects of which the first page holds ten, newest first.
    expect(dashboard.users.total).toBe(5);
    expect(dashboard.managers.map((manager) => manager.email).sort()).toEqual([team.manager.email, team.otherManager.email].sort());
    expect(dashboard.ongoing_projects).toMatchObject({ total: 12 });
    expect(dashboard.ongoing_projects.items).toHaveLength(10);
    expect(dashboard.ongoing_projects.items[0]!.name).toBe('Tower 10');
    expect(dashboard.completed_projects.total).toBe(1);
  });

  it('shows only the admin’s own company', async () => {
    const team = await createTeam(ctx.app);
    const stranger = await createTeam(ctx.app);
    await insertWork(ctx.app.db, stranger, { status: 'ongoing' });

    const dashboard = await dashboardOf(team.admin);
    expect(dashboard.users.items.map((user) => user.company_id)).toEqual(Array(5).fill(team.company.id));
    expect(dashboard.ongoing_projects).toEqual({ items: [], total: 0 });
    expect(dashboard.missing_logs).toEqual({ items: [], total: 0 });
  });

  it('is the admin’s alone: a manager and a team member are refused, an anonymous caller asked to sign in', async () => {
    const team = await createTeam(ctx.app);
    for (const caller of [team.manager, team.member]) {
      const response = await callAs(ctx.app, caller, { method: 'GET', url: '/api/admin-dashboard/' });
      expect(response.statusCode).toBe(403);
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin-dashboard/' })).statusCode).toBe(401);
  });

  it('answers a repeated load with 304 until something on it changed', async () => {
    const team = await createTeam(ctx.app);
    const get = (headers: Record<string, string> = {}) => callAs(ctx.app, team.admin, { method: 'GET', url: '/api/admin-dashboard/', headers });
    const first = await get();
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);

    const again = await get({ 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    await insertProject(ctx.app.db, team.company.id, { name: 'New depot', managerId: team.manager.id });
    const changed = await get({ 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect((changed.json() as AdminDashboard).ongoing_projects.items[0]!.name).toBe('New depot');
  });
});
