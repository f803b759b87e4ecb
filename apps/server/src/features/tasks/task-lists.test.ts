import { beforeAll, describe, expect, it } from 'vitest';
import type { SubtaskStatus } from '@siteboard/shared';
import { describeEachDatabase, type TestContext } from '../../test/build-app';
import { callAs, createTeam, insertMajorTask, insertProject, insertSubtask, insertWork, type Caller, type Team } from '../../test/work-factories';

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
        assigned_to: { id: team.member.id, email: team.member.email },
        assigned_by: { id: team.otherManager.id, email: team.otherManager.email },
        major_task: { id: expect.any(Number), name: expect.any(String), project: { id: expect.any(Number), name: expect.any(String), status: 'ongoing' } },
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
});
