import { beforeAll, describe, expect, it } from 'vitest';
import type { SubtaskStatus } from '@siteboard/shared';
import { describeEachDatabase, type TestContext } from '../../test/build-app';
import { callAs, createTeam, expectQueryRefusals, insertMajorTask, insertProject, insertSubtask, insertWork, listAs, type Caller, type Team } from '../../test/work-factories';

/** The calendar date in a zone, worked out here independently of the server's rule. */
function dateIn(timeZone: string, instant = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}

function shiftDays(date: string, days: number): string {
  const shifted = new Date(`${date}T00:00:00Z`);
  shifted.setUTCDate(shifted.getUTCDate() + days);
  return shifted.toISOString().slice(0, 10);
}

async function idsFrom(ctx: TestContext, caller: Caller, url: string): Promise<number[]> {
  const response = await callAs(ctx.app, caller, { method: 'GET', url });
  expect(response.statusCode).toBe(200);
  return response.json().map((subtask: { id: number }) => subtask.id).sort((a: number, b: number) => a - b);
}

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

describeEachDatabase('task lists API', (ctx) => {
  describe('GET /api/pending-approvals/', () => {
    let team: Team;
    let s: Record<string, number>;
    beforeAll(async () => {
      team = await createTeam(ctx.app);
      const rival = await createTeam(ctx.app);
      const companyId = team.company.id;
      const managedByManager = await insertMajorTask(ctx.app.db, companyId, (await insertProject(ctx.app.db, companyId, { managerId: team.manager.id })).id);
      const managedByOther = await insertMajorTask(ctx.app.db, companyId, (await insertProject(ctx.app.db, companyId, { managerId: team.otherManager.id })).id);
      const unmanaged = await insertMajorTask(ctx.app.db, companyId, (await insertProject(ctx.app.db, companyId, { managerId: null })).id);
      const add = async (majorTaskId: number, assignedById: number, assignedToId: number, status: SubtaskStatus = 'pending_approval') =>
        (await insertSubtask(ctx.app.db, { companyId, majorTaskId, assignedById, assignedToId, status })).id;
      s = {
        // Pending in the manager's project, assigned by the other manager to the member.
        inManagersProject: await add(managedByManager.id, team.otherManager.id, team.member.id),
        // Pending in the other manager's project, assigned by the manager to the other member.
        assignedByManager: await add(managedByOther.id, team.manager.id, team.otherMember.id),
        // Pending, all the other manager's doing, assigned to the member.
        otherManagersOnly: await add(managedByOther.id, team.otherManager.id, team.member.id),
        // Pending, created by a team member for themselves in a project without a manager.
        selfAssigned: await add(unmanaged.id, team.member.id, team.member.id),
        // Not pending: never listed.
        ongoing: await add(managedByManager.id, team.manager.id, team.member.id, 'ongoing'),
        completed: await add(managedByManager.id, team.manager.id, team.member.id, 'completed'),
      };
      await insertWork(ctx.app.db, rival, { status: 'pending_approval' });
    });

    it('shows a manager the pending subtasks of projects they manage or that they assigned', async () => {
      expect(await idsFrom(ctx, team.manager, '/api/pending-approvals/')).toEqual(sorted([s.inManagersProject!, s.assignedByManager!]));
      expect(await idsFrom(ctx, team.otherManager, '/api/pending-approvals/')).toEqual(sorted([s.inManagersProject!, s.assignedByManager!, s.otherManagersOnly!]));
    });

    it('shows an admin every pending subtask of the company, and no other company’s', async () => {
      expect(await idsFrom(ctx, team.admin, '/api/pending-approvals/')).toEqual(sorted([s.inManagersProject!, s.assignedByManager!, s.otherManagersOnly!, s.selfAssigned!]));
    });

    it('shows a team member their own pending subtasks', async () => {
      expect(await idsFrom(ctx, team.member, '/api/pending-approvals/')).toEqual(sorted([s.inManagersProject!, s.otherManagersOnly!, s.selfAssigned!]));
      expect(await idsFrom(ctx, team.otherMember, '/api/pending-approvals/')).toEqual([s.assignedByManager]);
    });

    it('answers each subtask in the full shape', async () => {
      const response = await callAs(ctx.app, team.manager, { method: 'GET', url: '/api/pending-approvals/' });
      const item = response.json().find((subtask: { id: number }) => subtask.id === s.inManagersProject);
      expect(item).toMatchObject({
        status: 'pending_approval',
        assigned_to: { id: team.member.id, email: team.member.email, full_name: null },
        assigned_by: { id: team.otherManager.id, email: team.otherManager.email, full_name: null },
        major_task: { id: expect.any(Number), name: expect.any(String), project: { id: expect.any(Number), name: expect.any(String), status: 'ongoing', manager_id: expect.any(Number) } },
      });
    });
  });

  describe('GET /api/tasks-due-today/', () => {
    let team: Team;
    let d: Record<string, number>;
    beforeAll(async () => {
      team = await createTeam(ctx.app, { timezone: 'Pacific/Auckland' });
      const companyId = team.company.id;
      const today = dateIn('Pacific/Auckland');
      const managedByManager = await insertMajorTask(ctx.app.db, companyId, (await insertProject(ctx.app.db, companyId, { managerId: team.manager.id })).id);
      const managedByOther = await insertMajorTask(ctx.app.db, companyId, (await insertProject(ctx.app.db, companyId, { managerId: team.otherManager.id })).id);
      const add = async (majorTaskId: number, assignedById: number, assignedToId: number, dueDate: string, status: SubtaskStatus = 'ongoing') =>
        (await insertSubtask(ctx.app.db, { companyId, majorTaskId, assignedById, assignedToId, dueDate, status })).id;
      d = {
        inManagersProject: await add(managedByManager.id, team.otherManager.id, team.member.id, today),
        assignedByManager: await add(managedByOther.id, team.manager.id, team.otherMember.id, today, 'pending_approval'),
        assignedToManager: await add(managedByOther.id, team.otherManager.id, team.manager.id, today),
        otherManagersOnly: await add(managedByOther.id, team.otherManager.id, team.otherMember.id, today),
        completedToday: await add(managedByManager.id, team.manager.id, team.member.id, today, 'completed'),
        tomorrow: await add(managedByManager.id, team.manager.id, team.member.id, shiftDays(today, 1)),
        yesterday: await add(managedByManager.id, team.manager.id, team.member.id, shiftDays(today, -1)),
      };
    });

    it('shows a manager what is due today in projects they manage, that they assigned or that is assigned to them', async () => {
      expect(await idsFrom(ctx, team.manager, '/api/tasks-due-today/')).toEqual(sorted([d.inManagersProject!, d.assignedByManager!, d.assignedToManager!]));
    });

    it('shows a team member what is due today and assigned to them', async () => {
      expect(await idsFrom(ctx, team.member, '/api/tasks-due-today/')).toEqual([d.inManagersProject]);
      expect(await idsFrom(ctx, team.otherMember, '/api/tasks-due-today/')).toEqual(sorted([d.assignedByManager!, d.otherManagersOnly!]));
    });

    it('shows an admin everything due today that is not completed', async () => {
      expect(await idsFrom(ctx, team.admin, '/api/tasks-due-today/')).toEqual(
        sorted([d.inManagersProject!, d.assignedByManager!, d.assignedToManager!, d.otherManagersOnly!]),
      );
    });

    it("takes today in each company's own time zone, on either side of the date line", async () => {
      const zones = ['Pacific/Auckland', 'America/Los_Angeles', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'];
      const now = new Date();
      // Every date that is "today" somewhere on Earth right now, and the days either side.
      const candidates = [...new Set(zones.flatMap((zone) => [-1, 0, 1].map((days) => shiftDays(dateIn(zone, now), days))))].sort();

      for (const zone of ['Pacific/Auckland', 'America/Los_Angeles']) {
        const company = await createTeam(ctx.app, { timezone: zone });
        const majorTask = await insertMajorTask(ctx.app.db, company.company.id, (await insertProject(ctx.app.db, company.company.id, { managerId: company.manager.id })).id);
        const byDate = new Map<string, number>();
        for (const dueDate of candidates) {
          const { id } = await insertSubtask(ctx.app.db, { companyId: company.company.id, majorTaskId: majorTask.id, assignedToId: company.member.id, dueDate });
          byDate.set(dueDate, id);
        }

        const listed = await callAs(ctx.app, company.admin, { method: 'GET', url: '/api/tasks-due-today/' });

        const expected = dateIn(zone);
        expect(listed.json().map((subtask: { due_date: string }) => subtask.due_date)).toEqual([expected]);
        expect(listed.json()[0].id).toBe(byDate.get(expected));
      }
    });
  });

  describe('pages and the team filter', () => {
    let team: Team;
    let pending: number[];
    let dueToday: number[];
    beforeAll(async () => {
      team = await createTeam(ctx.app);
      const rival = await createTeam(ctx.app);
      const companyId = team.company.id;
      const majorTask = await insertMajorTask(ctx.app.db, companyId, (await insertProject(ctx.app.db, companyId, { managerId: team.manager.id })).id);
      const today = dateIn('UTC');
      pending = [];
      // Due dates out of insertion order: the pages follow the due date, not the id.
      for (let index = 0; index < 25; index += 1) {
        const dueDate = shiftDays(today, 10 + ((index * 7) % 25));
        pending.push((await insertSubtask(ctx.app.db, { companyId, majorTaskId: majorTask.id, assignedById: team.manager.id, assignedToId: team.member.id, dueDate, status: 'pending_approval' })).id);
      }
      dueToday = [];
      for (let index = 0; index < 3; index += 1) {
        dueToday.push((await insertSubtask(ctx.app.db, { companyId, majorTaskId: majorTask.id, assignedById: team.manager.id, assignedToId: team.otherMember.id, dueDate: today })).id);
      }
      await insertWork(ctx.app.db, rival, { status: 'pending_approval' });
    });

    it('pages pending approvals soonest due first, with every match counted in X-Total-Count', async () => {
      const all = await listAs<{ id: number; due_date: string }>(ctx.app, team.manager, '/api/pending-approvals/');
      expect(all.total).toBe(25);
      expect(sorted(all.items.map((item) => item.id))).toEqual(sorted(pending));
      expect(all.items.map((item) => item.due_date)).toEqual(all.items.map((item) => item.due_date).sort());

      const pages = await Promise.all(['limit=10', 'limit=10&offset=10', 'limit=10&offset=20'].map((query) => listAs<{ id: number }>(ctx.app, team.manager, `/api/pending-approvals/?${query}`)));
      expect(pages.map((page) => page.items.length)).toEqual([10, 10, 5]);
      expect(pages.map((page) => page.total)).toEqual([25, 25, 25]);
      expect(pages.flatMap((page) => page.items.map((item) => item.id))).toEqual(all.items.map((item) => item.id));
      // Past the end: no row, the total still right.
      expect(await listAs(ctx.app, team.manager, '/api/pending-approvals/?limit=10&offset=40')).toEqual({ items: [], total: 25 });
    });

    it('pages tasks due today and subtasks, and counts only what the caller may see', async () => {
      const due = await listAs<{ id: number }>(ctx.app, team.manager, '/api/tasks-due-today/?limit=2');
      expect(due.total).toBe(3);
      expect(due.items.map((item) => item.id)).toEqual(dueToday.slice(0, 2));
      expect((await listAs(ctx.app, team.member, '/api/tasks-due-today/?limit=2')).total).toBe(0);

      const mine = await listAs<{ id: number }>(ctx.app, team.member, '/api/subtasks/?assigned_to=me&limit=5&offset=5');
      expect(mine.total).toBe(25);
      expect(mine.items).toHaveLength(5);
      expect((await listAs(ctx.app, team.admin, '/api/subtasks/?status=pending_approval&limit=1')).total).toBe(25);
    });

    it("lists a manager's team's subtasks with assigned_to=my_team, and nobody's for other roles", async () => {
      const joined = await callAs(ctx.app, team.admin, { method: 'POST', url: '/api/team-members/', payload: { user_id: team.member.id, manager_id: team.manager.id } });
      expect(joined.statusCode, joined.body).toBeLessThan(300);

      expect(await idsFrom(ctx, team.manager, '/api/subtasks/?assigned_to=my_team')).toEqual(sorted(pending));
      expect(await idsFrom(ctx, team.otherManager, '/api/subtasks/?assigned_to=my_team')).toEqual([]);
      expect(await idsFrom(ctx, team.admin, '/api/subtasks/?assigned_to=my_team')).toEqual([]);
      expect(await idsFrom(ctx, team.member, '/api/subtasks/?assigned_to=my_team')).toEqual([]);
      expect(await idsFrom(ctx, team.manager, '/api/subtasks/?assigned_to=my_team&status=ongoing')).toEqual([]);
    });

    it('refuses malformed paging and filters with 400 and says which and why', async () => {
      for (const path of ['/api/pending-approvals/', '/api/tasks-due-today/', '/api/subtasks/']) {
        await expectQueryRefusals(ctx.app, team.manager, path, [
          ['limit=0', { limit: ['limit must be at least 1.'] }],
          ['limit=101', { limit: ['limit must be at most 100.'] }],
          ['limit=ten', { limit: ['limit must be a whole number.'] }],
          ['offset=-1', { offset: ['offset must be a whole number.'] }],
        ]);
      }
      await expectQueryRefusals(ctx.app, team.manager, '/api/subtasks/', [['assigned_to=everyone', { assigned_to: ['assigned_to must be "me", "my_team" or a user id.'] }]]);
    });
  });
});
