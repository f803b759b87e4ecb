import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { END_BEFORE_START } from '@siteboard/shared';
import { projects } from '../../schema/projects';
import { majorTasks, subtasks } from '../../schema/tasks';
import { users } from '../../schema/users';
import { describeEachDatabase, type TestContext } from '../../test/build-app';
import { createUser, unique } from '../../test/factories';
import { callAs, createTeamAndRival, insertProject, insertWork, type Caller, type Team } from '../../test/work-factories';
import { MANAGER_CONFLICT } from './projects.rules';
import { INVALID_MANAGER } from './projects.service';

function projectPayload(team: Team, overrides: Record<string, unknown> = {}) {
  return { name: unique('Tower'), description: 'Twelve floors', start_date: '2026-02-01', end_date: '2026-09-30', manager_id: team.manager.id, status: 'ongoing', ...overrides };
}

function post(ctx: TestContext, caller: Caller, payload: object) {
  return callAs(ctx.app, caller, { method: 'POST', url: '/api/projects/', payload });
}

function patch(ctx: TestContext, caller: Caller, id: number, payload: object) {
  return callAs(ctx.app, caller, { method: 'PATCH', url: `/api/projects/${id}/`, payload });
}

async function projectRow(ctx: TestContext, id: number) {
  const [row] = await ctx.app.db.select().from(projects).where(eq(projects.id, id));
  return row;
}

async function projectCount(ctx: TestContext, companyId: number) {
  const [row] = await ctx.app.db.select({ count: sql<number>`count(*)::int` }).from(projects).where(eq(projects.companyId, companyId));
  return row!.count;
}

describeEachDatabase('projects API', (ctx) => {
  let team: Team, rival: Team;
  beforeAll(async () => ([team, rival] = await createTeamAndRival(ctx.app)));

  describe('GET /api/projects/', () => {
    it("answers every role with its own company's projects, in the documented shape", async () => {
      const work = await insertWork(ctx.app.db, team);
      const rivalWork = await insertWork(ctx.app.db, rival);

      for (const caller of [team.admin, team.manager, team.member]) {
        const response = await callAs(ctx.app, caller, { method: 'GET', url: '/api/projects/' });

        expect(response.statusCode).toBe(200);
        const listed = response.json();
        expect(listed.map((project: { id: number }) => project.id)).not.toContain(rivalWork.projectId);
        expect(listed).toContainEqual({
          id: work.projectId,
          name: expect.any(String),
          description: '',
          start_date: '2026-01-01',
          end_date: '2026-12-31',
          status: 'ongoing',
          manager: { id: team.manager.id, email: team.manager.email, full_name: null },
          company: { id: team.company.id, name: team.company.name },
          major_tasks: [work.majorTaskId],
        });
      }
    });

    it('embeds each major task with its subtasks when asked to expand', async () => {
      const work = await insertWork(ctx.app.db, team);

      const response = await callAs(ctx.app, team.member, { method: 'GET', url: '/api/projects/?expand=major_tasks' });

      expect(response.statusCode).toBe(200);
      const project = response.json().find((item: { id: number }) => item.id === work.projectId);
      expect(project.major_tasks).toHaveLength(1);
      const [majorTask] = project.major_tasks;
      expect(majorTask).toMatchObject({
        id: work.majorTaskId,
        project_id: work.projectId,
        project: { id: work.projectId, status: 'ongoing' },
        created_by: { id: team.manager.id, email: team.manager.email, full_name: null },
        due_date: '2026-06-30',
      });
      expect(majorTask.subtasks).toEqual([
        expect.objectContaining({ id: work.subtaskId, major_task_id: work.majorTaskId, assigned_to: { id: team.member.id, email: team.member.email, full_name: null }, due_date: '2026-06-30' }),
      ]);
    });

    it('refuses an unknown expand value', async () => {
      const response = await callAs(ctx.app, team.admin, { method: 'GET', url: '/api/projects/?expand=everything' });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({ expand: ['expand must be major_tasks.'] });
    });

    it('refuses a caller without a token', async () => {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/projects/' });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('POST /api/projects/', () => {
    it('lets an admin create a project: 201 with the project', async () => {
      const payload = projectPayload(team, { company_id: team.company.id });

      const response = await post(ctx, team.admin, payload);

      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({
        id: expect.any(Number),
        name: payload.name,
        description: 'Twelve floors',
        start_date: '2026-02-01',
        end_date: '2026-09-30',
        status: 'ongoing',
        manager: { id: team.manager.id, email: team.manager.email, full_name: null },
        company: { id: team.company.id, name: team.company.name },
        major_tasks: [],
      });
      expect(await projectRow(ctx, response.json().id)).toMatchObject({ companyId: team.company.id, startDate: '2026-02-01' });
    });

    it.each(['manager', 'member'] as const)('refuses a %s with 403 and creates nothing', async (who) => {
      const before = await projectCount(ctx, team.company.id);
      const response = await post(ctx, team[who], projectPayload(team));
      expect(response.statusCode).toBe(403);
      expect(await projectCount(ctx, team.company.id)).toBe(before);
    });

    it('refuses a company_id of another company with 404, creating nothing anywhere', async () => {
      const before = [await projectCount(ctx, team.company.id), await projectCount(ctx, rival.company.id)];

      const response = await post(ctx, team.admin, projectPayload(team, { company_id: rival.company.id }));

      expect(response.statusCode).toBe(404);
      expect(await projectCount(ctx, team.company.id)).toBe(before[0]);
      expect(await projectCount(ctx, rival.company.id)).toBe(before[1]);
    });

    it('answers a company_id that exists nowhere exactly like another company’s', async () => {
      const other = await post(ctx, team.admin, projectPayload(team, { company_id: rival.company.id }));
      const missing = await post(ctx, team.admin, projectPayload(team, { company_id: 987654 }));
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual(other.json());
    });

    it('answers a manager_id of another company exactly like an unknown id (404), a team member of the company 400', async () => {
      const before = await projectCount(ctx, team.company.id);

      const foreign = await post(ctx, team.admin, projectPayload(team, { manager_id: rival.manager.id }));
      const unknown = await post(ctx, team.admin, projectPayload(team, { manager_id: 987654 }));
      const member = await post(ctx, team.admin, projectPayload(team, { manager_id: team.member.id }));

      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({ detail: 'User not found.' });
      expect(unknown.json()).toEqual(foreign.json());
      expect(member.statusCode).toBe(400);
      expect(member.json()).toEqual({ detail: INVALID_MANAGER, errors: { manager_id: [INVALID_MANAGER] } });
      expect(await projectCount(ctx, team.company.id)).toBe(before);
    });

    it('refuses a manager_id naming a team member, an admin or a deleted manager', async () => {
      const deleted = await createUser(ctx.app.db, team.company.id, 'manager');
      await ctx.app.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, deleted.id));

      for (const managerId of [team.member.id, team.admin.id, deleted.id]) {
        const response = await post(ctx, team.admin, projectPayload(team, { manager_id: managerId }));
        expect(response.statusCode).toBe(400);
        expect(response.json().errors).toEqual({ manager_id: [INVALID_MANAGER] });
      }
    });

    it('refuses an end date before the start date', async () => {
      const response = await post(ctx, team.admin, projectPayload(team, { start_date: '2026-05-02', end_date: '2026-05-01' }));
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({ end_date: [END_BEFORE_START] });
    });

    it('names a reversed date range beside the other errors, not once they are mended', async () => {
      const { manager_id: _manager, ...withoutManager } = projectPayload(team, { start_date: '2026-12-01', end_date: '2026-11-01' });
      const response = await post(ctx, team.admin, withoutManager);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({ manager_id: [expect.any(String)], end_date: [END_BEFORE_START] });
    });

    it('names each missing required field', async () => {
      const response = await post(ctx, team.admin, {});
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json().errors).sort()).toEqual(['end_date', 'manager_id', 'name', 'start_date', 'status']);
    });

    it('refuses a date that is not a calendar day', async () => {
      const response = await post(ctx, team.admin, projectPayload(team, { start_date: '2026-02-30' }));
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toHaveProperty('start_date');
    });
  });

  describe('PATCH /api/projects/{id}/', () => {
    it('edits the fields sent and answers the project', async () => {
      const { id } = await insertProject(ctx.app.db, team.company.id, { managerId: team.manager.id });

      const response = await patch(ctx, team.admin, id, { name: 'Renamed', description: 'New words', status: 'completed' });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id, name: 'Renamed', description: 'New words', status: 'completed', start_date: '2026-01-01', manager: { id: team.manager.id } });
    });

    it.each(['manager', 'manager_id'])('changes the manager sent as %s', async (field) => {
      const { id } = await insertProject(ctx.app.db, team.company.id, { managerId: team.manager.id });

      const response = await patch(ctx, team.admin, id, { [field]: team.otherManager.id });

      expect(response.statusCode).toBe(200);
      expect(response.json().manager).toEqual({ id: team.otherManager.id, email: team.otherManager.email, full_name: null });
    });

    it.each(['manager', 'manager_id'])('refuses, under %s, a manager of another company (404) and changes nothing', async (field) => {
      const { id } = await insertProject(ctx.app.db, team.company.id, { managerId: team.manager.id });

      const response = await patch(ctx, team.admin, id, { [field]: rival.manager.id, name: 'Should not stick' });

      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'User not found.' });
      expect(await projectRow(ctx, id)).toMatchObject({ managerId: team.manager.id, name: expect.not.stringMatching('Should not stick') });
    });

    it('refuses manager and manager_id that disagree', async () => {
      const { id } = await insertProject(ctx.app.db, team.company.id, { managerId: team.manager.id });
      const response = await patch(ctx, team.admin, id, { manager: team.manager.id, manager_id: team.otherManager.id });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({ manager_id: [MANAGER_CONFLICT] });
    });

    it('checks the end date against the stored start date when only the end is sent', async () => {
      const { id } = await insertProject(ctx.app.db, team.company.id, { startDate: '2026-03-01', endDate: '2026-04-01' });

      const response = await patch(ctx, team.admin, id, { end_date: '2026-02-28' });

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail: END_BEFORE_START, errors: { end_date: [END_BEFORE_START] } });
      expect(await projectRow(ctx, id)).toMatchObject({ endDate: '2026-04-01' });
    });

    it('checks the stored end date against a new start date', async () => {
      const { id } = await insertProject(ctx.app.db, team.company.id, { startDate: '2026-03-01', endDate: '2026-04-01' });
      const response = await patch(ctx, team.admin, id, { start_date: '2026-04-02' });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({ end_date: [END_BEFORE_START] });
    });

    it('accepts new start and end dates that agree with each other', async () => {
      const { id } = await insertProject(ctx.app.db, team.company.id, { startDate: '2026-03-01', endDate: '2026-04-01' });
      const response = await patch(ctx, team.admin, id, { start_date: '2027-01-01', end_date: '2027-02-01' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ start_date: '2027-01-01', end_date: '2027-02-01' });
    });

    it("answers 404 'Project not found.' for another company's project and for an unknown one, changing nothing", async () => {
      const { id } = await insertProject(ctx.app.db, rival.company.id, { name: 'Rival tower' });

      const foreign = await patch(ctx, team.admin, id, { name: 'Hijacked' });
      const unknown = await patch(ctx, team.admin, 987654, { name: 'Hijacked' });

      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({ detail: 'Project not found.' });
      expect(unknown.json()).toEqual(foreign.json());
      expect(await projectRow(ctx, id)).toMatchObject({ name: 'Rival tower' });
    });

    it.each(['manager', 'member'] as const)('refuses a %s with 403', async (who) => {
      const { id } = await insertProject(ctx.app.db, team.company.id);
      const response = await patch(ctx, team[who], id, { name: 'Nope' });
      expect(response.statusCode).toBe(403);
    });

    it('refuses an empty edit', async () => {
      const { id } = await insertProject(ctx.app.db, team.company.id);
      const response = await patch(ctx, team.admin, id, {});
      expect(response.statusCode).toBe(400);
      expect(response.json().detail).toMatch(/Nothing to update\./);
    });
  });

  describe('DELETE /api/projects/{id}/', () => {
    it('deletes the project with its major tasks and subtasks', async () => {
      const work = await insertWork(ctx.app.db, team);

      const response = await callAs(ctx.app, team.admin, { method: 'DELETE', url: `/api/projects/${work.projectId}/` });

      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(await projectRow(ctx, work.projectId)).toBeUndefined();
      expect(await ctx.app.db.select().from(majorTasks).where(eq(majorTasks.id, work.majorTaskId))).toEqual([]);
      expect(await ctx.app.db.select().from(subtasks).where(eq(subtasks.id, work.subtaskId))).toEqual([]);
    });

    it("answers 404 for another company's project and leaves it and its tasks in place", async () => {
      const work = await insertWork(ctx.app.db, rival);

      const response = await callAs(ctx.app, team.admin, { method: 'DELETE', url: `/api/projects/${work.projectId}/` });

      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Project not found.' });
      expect(await projectRow(ctx, work.projectId)).toBeDefined();
      expect(await ctx.app.db.select().from(subtasks).where(eq(subtasks.id, work.subtaskId))).toHaveLength(1);
    });

    it.each(['manager', 'member'] as const)('refuses a %s with 403', async (who) => {
      const work = await insertWork(ctx.app.db, team);
      const response = await callAs(ctx.app, team[who], { method: 'DELETE', url: `/api/projects/${work.projectId}/` });
      expect(response.statusCode).toBe(403);
      expect(await projectRow(ctx, work.projectId)).toBeDefined();
    });
  });
});
