import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMPLETED_PROJECT_READ_ONLY, INVALID_ASSIGNEE, NOT_YOUR_MAJOR_TASK, PAST_DUE_DATE_NEEDS_PROJECT_MANAGER } from '@siteboard/shared';
import { majorTasks, subtasks } from '../../schema/tasks';
import { users } from '../../schema/users';
import { describeEachDatabase, type TestContext } from '../../test/build-app';
import { createUser, unique } from '../../test/factories';
import { callAs, createTeamAndRival, insertMajorTask, insertProject, insertWork, type Caller, type Team } from '../../test/work-factories';
import { whileRefusingInserts } from '../../test/refuse-inserts';
import { whileStatementRuns } from '../../test/uncommitted';
import { projects } from '../../schema/projects';

function subtaskPayload(assignedToId: number, overrides: Record<string, unknown> = {}) {
  return { name: unique('Pour slab'), description: 'Level 2', assigned_to_id: assignedToId, due_date: '2099-05-10', priority: 'high', ...overrides };
}

function post(ctx: TestContext, caller: Caller, payload: object) {
  return callAs(ctx.app, caller, { method: 'POST', url: '/api/major-tasks/', payload });
}

async function majorTaskCount(ctx: TestContext, companyId: number) {
  const [row] = await ctx.app.db.select({ count: sql<number>`count(*)::int` }).from(majorTasks).where(eq(majorTasks.companyId, companyId));
  return row!.count;
}

async function subtaskCount(ctx: TestContext, companyId: number) {
  const [row] = await ctx.app.db.select({ count: sql<number>`count(*)::int` }).from(subtasks).where(eq(subtasks.companyId, companyId));
  return row!.count;
}

async function majorTaskRow(ctx: TestContext, id: number) {
  const [row] = await ctx.app.db.select().from(majorTasks).where(eq(majorTasks.id, id));
  return row;
}

describeEachDatabase('major tasks API', (ctx) => {
  let team: Team, rival: Team;
  beforeAll(async () => ([team, rival] = await createTeamAndRival(ctx.app)));

  describe('POST /api/major-tasks/', () => {
    it('creates the major task and its subtasks; its due date is the latest of theirs', async () => {
      const project = await insertProject(ctx.app.db, team.company.id, { managerId: team.manager.id, name: 'Bridge' });
      const payload = {
        project_id: project.id,
        name: 'Foundations',
        description: 'Piles and caps',
        due_date: '2020-01-01',
        subtasks: [
          subtaskPayload(team.member.id, { name: 'Drive piles', due_date: '2026-05-10' }),
          { name: 'Cap piles', assigned_to_id: team.otherManager.id, due_date: '2026-07-01' },
          subtaskPayload(team.otherMember.id, { name: 'Inspect', due_date: '2026-06-15', priority: 'low' }),
        ],
      };

      const response = await post(ctx, team.manager, payload);

      expect(response.statusCode).toBe(201);
      const body = response.json();
      const projectRef = { id: project.id, name: 'Bridge', status: 'ongoing', manager_id: team.manager.id };
      expect(body).toEqual({
        id: expect.any(Number),
        name: 'Foundations',
        description: 'Piles and caps',
        due_date: '2026-07-01',
        created_by: { id: team.manager.id, email: team.manager.email, full_name: null },
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        project: projectRef,
        project_id: project.id,
        // Subtasks come earliest due first, everywhere.
        subtasks: [
          expect.objectContaining({ name: 'Drive piles', due_date: '2026-05-10', priority: 'high', assigned_to_id: team.member.id }),
          expect.objectContaining({ name: 'Inspect', due_date: '2026-06-15', priority: 'low' }),
          expect.objectContaining({ name: 'Cap piles', due_date: '2026-07-01', priority: 'medium', description: '' }),
        ],
      });
      expect(body.subtasks[0]).toEqual({
        id: expect.any(Number),
        name: 'Drive piles',
        description: 'Level 2',
        status: 'ongoing',
        priority: 'high',
        due_date: '2026-05-10',
        assigned_to: { id: team.member.id, email: team.member.email, full_name: null },
        assigned_to_id: team.member.id,
        assignee_left: false,
        assigned_by: { id: team.manager.id, email: team.manager.email, full_name: null },
        major_task_id: body.id,
        major_task: { id: body.id, name: 'Foundations', project: projectRef },
        created_at: expect.any(String),
        submitted_at: null,
        completed_at: null,
        closed_unfinished_at: null,
        decline_reason: null,
        submission_note: null,
        pin: null,
      });
      expect(await majorTaskRow(ctx, body.id)).toMatchObject({ dueDate: '2026-07-01', createdById: team.manager.id });
    });

    it('accepts a planned project', async () => {
      const project = await insertProject(ctx.app.db, team.company.id, { status: 'planned' });
      const response = await post(ctx, team.manager, { project_id: project.id, name: 'Survey', subtasks: [subtaskPayload(team.member.id)] });
      expect(response.statusCode).toBe(201);
    });

    it.each(['admin', 'member'] as const)('refuses a %s with 403', async (who) => {
      const project = await insertProject(ctx.app.db, team.company.id);
      const response = await post(ctx, team[who], { project_id: project.id, name: 'Nope', subtasks: [subtaskPayload(team.member.id)] });
      expect(response.statusCode).toBe(403);
    });

    it("refuses an overdue subtask from a manager who does not manage the project, naming it; the project's manager may", async () => {
      const project = await insertProject(ctx.app.db, team.company.id, { managerId: team.manager.id });
      const payload = { project_id: project.id, name: 'Backdated', subtasks: [subtaskPayload(team.member.id), subtaskPayload(team.member.id, { due_date: '2020-02-29' })] };
      const before = await majorTaskCount(ctx, team.company.id);

      const refused = await post(ctx, team.otherManager, payload);

      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ detail: PAST_DUE_DATE_NEEDS_PROJECT_MANAGER, errors: { 'subtasks.1.due_date': [PAST_DUE_DATE_NEEDS_PROJECT_MANAGER] } });
      expect(await majorTaskCount(ctx, team.company.id)).toBe(before);
      expect((await post(ctx, team.manager, payload)).statusCode).toBe(201);
    });

    it("answers 404 for another company's project_id, creating nothing in either company", async () => {
      const project = await insertProject(ctx.app.db, rival.company.id);
      const before = [await majorTaskCount(ctx, team.company.id), await majorTaskCount(ctx, rival.company.id)];

      const response = await post(ctx, team.manager, { project_id: project.id, name: 'Intrusion', subtasks: [subtaskPayload(team.member.id)] });

      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Project not found.' });
      expect([await majorTaskCount(ctx, team.company.id), await majorTaskCount(ctx, rival.company.id)]).toEqual(before);
    });

    it('refuses a completed project with 400 and creates nothing', async () => {
      const project = await insertProject(ctx.app.db, team.company.id, { status: 'completed' });
      const before = await majorTaskCount(ctx, team.company.id);

      const response = await post(ctx, team.manager, { project_id: project.id, name: 'Late', subtasks: [subtaskPayload(team.member.id)] });

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail: COMPLETED_PROJECT_READ_ONLY, errors: { project_id: [COMPLETED_PROJECT_READ_ONLY] } });
      expect(await majorTaskCount(ctx, team.company.id)).toBe(before);
    });

    it('names every bad assignee by position and creates nothing, not even the good subtasks', async () => {
      const project = await insertProject(ctx.app.db, team.company.id);
      const deleted = await createUser(ctx.app.db, team.company.id, 'team_member', { managerId: team.manager.id });
      await ctx.app.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, deleted.id));
      const before = [await majorTaskCount(ctx, team.company.id), await subtaskCount(ctx, team.company.id)];

      const response = await post(ctx, team.manager, {
        project_id: project.id,
        name: 'Mixed',
        subtasks: [subtaskPayload(team.member.id), subtaskPayload(team.admin.id), subtaskPayload(deleted.id), subtaskPayload(team.otherMember.id)],
      });

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        detail: INVALID_ASSIGNEE,
        errors: {
          'subtasks.1.assigned_to_id': [INVALID_ASSIGNEE],
          'subtasks.2.assigned_to_id': [INVALID_ASSIGNEE],
        },
      });
      // Another company's person, or none, among them is not found, as in a path: 404, and nothing is made.
      for (const stranger of [rival.member.id, 987654]) {
        const foreign = await post(ctx, team.manager, { project_id: project.id, name: 'Mixed', subtasks: [subtaskPayload(team.member.id), subtaskPayload(team.admin.id), subtaskPayload(stranger)] });
        expect(foreign.statusCode).toBe(404);
        expect(foreign.json()).toEqual({ detail: 'User not found.' });
      }
      expect([await majorTaskCount(ctx, team.company.id), await subtaskCount(ctx, team.company.id)]).toEqual(before);
    });

    it('leaves no major task behind when the database refuses one of its subtasks', async () => {
      const project = await insertProject(ctx.app.db, team.company.id);
      const poison = unique('poison');
      const before = [await majorTaskCount(ctx, team.company.id), await subtaskCount(ctx, team.company.id)];
      await whileRefusingInserts(ctx.app.db, { table: 'subtasks', column: 'name', value: poison }, async () => {
        const response = await post(ctx, team.manager, {
          project_id: project.id,
          name: 'Half done',
          subtasks: [subtaskPayload(team.member.id), subtaskPayload(team.member.id, { name: poison })],
        });

        expect(response.statusCode).toBe(500);
        expect(response.json()).toEqual({ detail: 'Internal server error.' });
        expect([await majorTaskCount(ctx, team.company.id), await subtaskCount(ctx, team.company.id)]).toEqual(before);
      });
    });

    it('answers a major task made just before its project went with what was made: a 201, not a 404 (both databases)', async () => {
      const project = await insertProject(ctx.app.db, team.company.id, { managerId: team.manager.id });
      // Asked as its subtasks are written: the embedded database runs this deletion right after the
      // creation's commit, PostgreSQL once the project's lock lets it go, before a later read.
      const answer = await whileStatementRuns(
        ctx.queries,
        /^insert into "subtasks"/,
        () => ctx.app.db.delete(projects).where(eq(projects.id, project.id)),
        () => post(ctx, team.manager, { project_id: project.id, name: 'Facade', subtasks: [subtaskPayload(team.member.id, { name: 'Hang panels' })] }),
      );
      expect(answer.statusCode, answer.body).toBe(201);
      expect(answer.json()).toMatchObject({ name: 'Facade', project_id: project.id, subtasks: [expect.objectContaining({ name: 'Hang panels' })] });
      expect(await majorTaskRow(ctx, answer.json<{ id: number }>().id)).toBeUndefined();
    });

    it('names missing fields, also inside subtasks', async () => {
      const noSubtasks = await post(ctx, team.manager, { name: 'X', subtasks: [] });
      expect(noSubtasks.statusCode).toBe(400);
      expect(noSubtasks.json().errors).toEqual({ project_id: ['Select a project.'], subtasks: ['Add at least one subtask.'] });

      const project = await insertProject(ctx.app.db, team.company.id);
      const badSubtask = await post(ctx, team.manager, { project_id: project.id, name: 'X', subtasks: [{ priority: 'urgent' }] });
      expect(badSubtask.statusCode).toBe(400);
      expect(Object.keys(badSubtask.json().errors).sort()).toEqual(['subtasks.0.assigned_to_id', 'subtasks.0.due_date', 'subtasks.0.name', 'subtasks.0.priority']);
    });
  });

  describe('GET /api/major-tasks/{id}/', () => {
    it('answers any role of the company with the major task and its subtasks', async () => {
      const work = await insertWork(ctx.app.db, team);
      for (const caller of [team.admin, team.manager, team.member]) {
        const response = await callAs(ctx.app, caller, { method: 'GET', url: `/api/major-tasks/${work.majorTaskId}/` });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({ id: work.majorTaskId, project_id: work.projectId, subtasks: [{ id: work.subtaskId }] });
      }
    });

    it("answers 404 for another company's major task, exactly like an unknown one", async () => {
      const work = await insertWork(ctx.app.db, rival);
      const foreign = await callAs(ctx.app, team.member, { method: 'GET', url: `/api/major-tasks/${work.majorTaskId}/` });
      const unknown = await callAs(ctx.app, team.member, { method: 'GET', url: '/api/major-tasks/987654/' });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({ detail: 'Major task not found.' });
      expect(unknown.json()).toEqual(foreign.json());
    });
  });

  describe('PATCH /api/major-tasks/{id}/', () => {
    it("lets the project's manager rename it; a sent due date is ignored, the subtasks keep deciding it", async () => {
      const work = await insertWork(ctx.app.db, team);

      const response = await callAs(ctx.app, team.manager, {
        method: 'PATCH',
        url: `/api/major-tasks/${work.majorTaskId}/`,
        payload: { name: 'Renamed', description: 'Updated', due_date: '2030-01-01' },
      });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ name: 'Renamed', description: 'Updated', due_date: '2026-06-30' });
    });

    it('answers a major task renamed just before it went with what was saved: a 200, not a 404 (both databases)', async () => {
      const work = await insertWork(ctx.app.db, team);
      const answer = await whileStatementRuns(
        ctx.queries,
        /^update "major_tasks"/,
        () => ctx.app.db.delete(majorTasks).where(eq(majorTasks.id, work.majorTaskId)),
        () => callAs(ctx.app, team.manager, { method: 'PATCH', url: `/api/major-tasks/${work.majorTaskId}/`, payload: { name: 'Roof, second coat' } }),
      );
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toMatchObject({ id: work.majorTaskId, name: 'Roof, second coat' });
      expect(await majorTaskRow(ctx, work.majorTaskId)).toBeUndefined();
    });

    it('refuses a completed project with 400 and changes nothing', async () => {
      const work = await insertWork(ctx.app.db, team, { projectStatus: 'completed' });
      const response = await callAs(ctx.app, team.manager, { method: 'PATCH', url: `/api/major-tasks/${work.majorTaskId}/`, payload: { name: 'Renamed' } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail: COMPLETED_PROJECT_READ_ONLY });
      expect(await majorTaskRow(ctx, work.majorTaskId)).toMatchObject({ name: expect.not.stringMatching(/^Renamed$/) });
    });

    it("answers 404 for another company's major task and changes nothing", async () => {
      const work = await insertWork(ctx.app.db, rival);
      const response = await callAs(ctx.app, team.manager, { method: 'PATCH', url: `/api/major-tasks/${work.majorTaskId}/`, payload: { name: 'Hijacked' } });
      expect(response.statusCode).toBe(404);
      expect((await majorTaskRow(ctx, work.majorTaskId))!.name).not.toBe('Hijacked');
    });

    it('lets the manager who created it rename it in a project another manager manages, and an admin too', async () => {
      const work = await insertWork(ctx.app.db, team);
      const theirs = await insertMajorTask(ctx.app.db, team.company.id, work.projectId, { createdById: team.otherManager.id });

      const byCreator = await callAs(ctx.app, team.otherManager, { method: 'PATCH', url: `/api/major-tasks/${theirs.id}/`, payload: { name: 'Renamed by its creator' } });
      const byAdmin = await callAs(ctx.app, team.admin, { method: 'PATCH', url: `/api/major-tasks/${work.majorTaskId}/`, payload: { name: 'Renamed by the admin' } });

      expect(byCreator.statusCode).toBe(200);
      expect(byCreator.json().name).toBe('Renamed by its creator');
      expect(byAdmin.statusCode).toBe(200);
      expect(byAdmin.json().name).toBe('Renamed by the admin');
    });

    it.each(['otherManager', 'member'] as const)('refuses %s (neither the project manager nor the creator) with 403 and changes nothing', async (who) => {
      const work = await insertWork(ctx.app.db, team);
      const response = await callAs(ctx.app, team[who], { method: 'PATCH', url: `/api/major-tasks/${work.majorTaskId}/`, payload: { name: 'Nope' } });
      expect(response.statusCode).toBe(403);
      expect((await majorTaskRow(ctx, work.majorTaskId))!.name).not.toBe('Nope');
    });
  });

  describe('DELETE /api/major-tasks/{id}/', () => {
    it('lets a manager delete it with its subtasks', async () => {
      const work = await insertWork(ctx.app.db, team);
      const response = await callAs(ctx.app, team.manager, { method: 'DELETE', url: `/api/major-tasks/${work.majorTaskId}/` });
      expect(response.statusCode).toBe(204);
      expect(await majorTaskRow(ctx, work.majorTaskId)).toBeUndefined();
      expect(await ctx.app.db.select().from(subtasks).where(eq(subtasks.id, work.subtaskId))).toEqual([]);
    });

    it('refuses a completed project with 400 and keeps everything', async () => {
      const work = await insertWork(ctx.app.db, team, { projectStatus: 'completed' });
      const response = await callAs(ctx.app, team.manager, { method: 'DELETE', url: `/api/major-tasks/${work.majorTaskId}/` });
      expect(response.statusCode).toBe(400);
      expect(await majorTaskRow(ctx, work.majorTaskId)).toBeDefined();
    });

    it("answers 404 for another company's major task and keeps it", async () => {
      const work = await insertWork(ctx.app.db, rival);
      const response = await callAs(ctx.app, team.manager, { method: 'DELETE', url: `/api/major-tasks/${work.majorTaskId}/` });
      expect(response.statusCode).toBe(404);
      expect(await majorTaskRow(ctx, work.majorTaskId)).toBeDefined();
    });

    it.each(['otherManager', 'member'] as const)('refuses %s (neither the project manager nor the creator) with 403 and keeps it with its subtasks', async (who) => {
      const work = await insertWork(ctx.app.db, team);
      const response = await callAs(ctx.app, team[who], { method: 'DELETE', url: `/api/major-tasks/${work.majorTaskId}/` });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ detail: who === 'member' ? expect.any(String) : NOT_YOUR_MAJOR_TASK });
      expect(await majorTaskRow(ctx, work.majorTaskId)).toBeDefined();
      expect(await ctx.app.db.select().from(subtasks).where(eq(subtasks.id, work.subtaskId))).toHaveLength(1);
    });
  });

  it('documents every work route in /api/openapi.json', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const paths = Object.keys(response.json().paths);
    for (const path of [
      '/api/projects/',
      '/api/projects/{id}/',
      '/api/major-tasks/',
      '/api/major-tasks/{id}/',
      '/api/subtasks/',
      '/api/subtasks/{id}/',
      '/api/pending-approvals/',
      '/api/tasks-due-today/',
    ]) {
      expect(paths).toContain(path);
    }
  });
});
