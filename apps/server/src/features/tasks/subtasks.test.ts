import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  APPROVED_WORK_KEEPS_ASSIGNEE,
  ASSIGNEE_MAY_ONLY_SUBMIT,
  PENDING_WORK_KEEPS_ASSIGNEE,
  COMPLETED_PROJECT_READ_ONLY,
  INVALID_ASSIGNEE,
  NEW_SUBTASK_STARTS_ONGOING,
  NOT_YOUR_SUBTASK,
  ONLY_ONGOING_CAN_BE_SUBMITTED,
  PAST_DUE_DATE_NEEDS_PROJECT_MANAGER,
  SUBTASK_CHANGED_MEANWHILE,
} from '@siteboard/shared';
import { sheets } from '../../schema/sheets';
import { majorTasks, subtasks } from '../../schema/tasks';
import { insertSheets } from '../sheets/sheets.queries';
import { describeEachDatabase, type TestContext } from '../../test/build-app';
import { createUser, loginAs } from '../../test/factories';
import { whileStatementRuns, whileUncommitted } from '../../test/uncommitted';
import { events } from '../../lib/events';
import { callAs, createTeam, createTeamAndRival, insertMajorTask, insertProject, insertSubtask, insertWork, type Caller, type Team } from '../../test/work-factories';

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function patch(ctx: TestContext, caller: Caller, id: number, payload: object) {
  return callAs(ctx.app, caller, { method: 'PATCH', url: `/api/subtasks/${id}/`, payload });
}

function post(ctx: TestContext, caller: Caller, payload: object) {
  return callAs(ctx.app, caller, { method: 'POST', url: '/api/subtasks/', payload });
}

async function subtaskRow(ctx: TestContext, id: number) {
  const [row] = await ctx.app.db.select().from(subtasks).where(eq(subtasks.id, id));
  return row!;
}

async function majorTaskDueDate(ctx: TestContext, id: number) {
  const [row] = await ctx.app.db.select({ dueDate: majorTasks.dueDate }).from(majorTasks).where(eq(majorTasks.id, id));
  return row!.dueDate;
}

async function subtaskCount(ctx: TestContext, majorTaskId: number) {
  const [row] = await ctx.app.db.select({ count: sql<number>`count(*)::int` }).from(subtasks).where(eq(subtasks.majorTaskId, majorTaskId));
  return row!.count;
}

/** What a test runs inside a subtask's creation, once it is written and before its transaction commits. */
let deleteAfterCreation: (() => unknown) | undefined;
events.on('subtasks.assigned', async () => void deleteAfterCreation?.());

describeEachDatabase('subtasks API', (ctx) => {
  let team: Team, rival: Team;
  beforeAll(async () => ([team, rival] = await createTeamAndRival(ctx.app)));

  describe('POST /api/subtasks/', () => {
    it("creates a team member's subtask under `major_task` with the spec's defaults, and moves the major task's due date", async () => {
      const work = await insertWork(ctx.app.db, team, { dueDate: '2026-06-30' });

      const response = await post(ctx, team.member, { major_task: work.majorTaskId, name: 'Order rebar', assigned_to_id: team.otherMember.id, due_date: '2099-08-01' });

      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({
        id: expect.any(Number),
        name: 'Order rebar',
        description: '',
        status: 'ongoing',
        priority: 'medium',
        due_date: '2099-08-01',
        assigned_to: { id: team.otherMember.id, email: team.otherMember.email, full_name: null },
        assigned_to_id: team.otherMember.id,
        assignee_left: false,
        assigned_by: { id: team.member.id, email: team.member.email, full_name: null },
        major_task_id: work.majorTaskId,
        major_task: { id: work.majorTaskId, name: expect.any(String), project: { id: work.projectId, name: expect.any(String), status: 'ongoing', manager_id: expect.any(Number) } },
        created_at: expect.stringMatching(ISO_TIMESTAMP),
        submitted_at: null,
        completed_at: null,
        closed_unfinished_at: null,
        decline_reason: null,
        submission_note: null,
        pin: null,
      });
      expect(await majorTaskDueDate(ctx, work.majorTaskId)).toBe('2099-08-01');
    });

    it("accepts major_task_id, and a manager's subtask in another status with its timestamp", async () => {
      const work = await insertWork(ctx.app.db, team);

      const response = await post(ctx, team.manager, { major_task_id: work.majorTaskId, name: 'Done already', assigned_to_id: team.member.id, due_date: '2026-03-01', status: 'completed' });

      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ status: 'completed', completed_at: expect.stringMatching(ISO_TIMESTAMP), assigned_by: { id: team.manager.id } });
      expect(await majorTaskDueDate(ctx, work.majorTaskId)).toBe('2026-06-30');
    });

    it('refuses a team member creating a subtask already completed', async () => {
      const work = await insertWork(ctx.app.db, team);
      const before = await subtaskCount(ctx, work.majorTaskId);
      const response = await post(ctx, team.member, { major_task: work.majorTaskId, name: 'Skip approval', assigned_to_id: team.member.id, due_date: '2026-03-01', status: 'completed' });
      expect(response.statusCode).toBe(403);
      expect(await subtaskCount(ctx, work.majorTaskId)).toBe(before);
    });

    it('refuses a manager who does not manage the project a subtask in any status but ongoing: the approval loop cannot be skipped', async () => {
      const work = await insertWork(ctx.app.db, team);
      const before = await subtaskCount(ctx, work.majorTaskId);
      for (const status of ['completed', 'pending_approval']) {
        const response = await post(ctx, team.otherManager, { major_task: work.majorTaskId, name: 'Skip approval', assigned_to_id: team.otherMember.id, due_date: '2099-03-01', status });
        expect(response.statusCode, status).toBe(403);
        expect(response.json()).toEqual({ detail: NEW_SUBTASK_STARTS_ONGOING });
      }
      expect(await subtaskCount(ctx, work.majorTaskId)).toBe(before);
    });

    it("refuses anyone but the project's manager a subtask already overdue, naming due_date", async () => {
      const work = await insertWork(ctx.app.db, team);
      const before = await subtaskCount(ctx, work.majorTaskId);
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      for (const caller of [team.member, team.otherManager]) {
        const response = await post(ctx, caller, { major_task: work.majorTaskId, name: 'Overdue already', assigned_to_id: team.otherMember.id, due_date: yesterday });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ detail: PAST_DUE_DATE_NEEDS_PROJECT_MANAGER, errors: { due_date: [PAST_DUE_DATE_NEEDS_PROJECT_MANAGER] } });
      }
      expect(await subtaskCount(ctx, work.majorTaskId)).toBe(before);
      const today = new Date().toISOString().slice(0, 10);
      expect((await post(ctx, team.member, { major_task: work.majorTaskId, name: 'Due today', assigned_to_id: team.otherMember.id, due_date: today })).statusCode).toBe(201);
      expect((await post(ctx, team.manager, { major_task: work.majorTaskId, name: 'Backdated', assigned_to_id: team.otherMember.id, due_date: yesterday })).statusCode).toBe(201);
    });

    it('refuses an admin with 403', async () => {
      const work = await insertWork(ctx.app.db, team);
      const response = await post(ctx, team.admin, { major_task: work.majorTaskId, name: 'X', assigned_to_id: team.member.id, due_date: '2026-03-01' });
      expect(response.statusCode).toBe(403);
    });

    it("answers 404 for another company's major task, exactly like an unknown one, creating nothing", async () => {
      const work = await insertWork(ctx.app.db, rival);
      const before = await subtaskCount(ctx, work.majorTaskId);

      const foreign = await post(ctx, team.member, { major_task: work.majorTaskId, name: 'Intrusion', assigned_to_id: team.member.id, due_date: '2026-03-01' });
      const unknown = await post(ctx, team.member, { major_task: 987654, name: 'Intrusion', assigned_to_id: team.member.id, due_date: '2026-03-01' });

      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({ detail: 'Major task not found.' });
      expect(unknown.json()).toEqual(foreign.json());
      expect(await subtaskCount(ctx, work.majorTaskId)).toBe(before);
    });

    it('refuses a major task of a completed project with 400', async () => {
      const work = await insertWork(ctx.app.db, team, { projectStatus: 'completed' });
      const response = await post(ctx, team.member, { major_task: work.majorTaskId, name: 'Late', assigned_to_id: team.member.id, due_date: '2026-03-01' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail: COMPLETED_PROJECT_READ_ONLY, errors: { major_task: [COMPLETED_PROJECT_READ_ONLY] } });
      expect(await subtaskCount(ctx, work.majorTaskId)).toBe(1);
    });

    it('refuses, under assigned_to_id, an admin (400), and an assignee of another company or an unknown id identically (404)', async () => {
      const work = await insertWork(ctx.app.db, team);
      const admin = await post(ctx, team.member, { major_task: work.majorTaskId, name: 'X', assigned_to_id: team.admin.id, due_date: '2026-03-01' });
      expect(admin.statusCode).toBe(400);
      expect(admin.json()).toEqual({ detail: INVALID_ASSIGNEE, errors: { assigned_to_id: [INVALID_ASSIGNEE] } });
      for (const assigneeId of [rival.member.id, 987654]) {
        const response = await post(ctx, team.member, { major_task: work.majorTaskId, name: 'X', assigned_to_id: assigneeId, due_date: '2026-03-01' });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ detail: 'User not found.' });
      }
      expect(await subtaskCount(ctx, work.majorTaskId)).toBe(1);
    });

    it('refuses ids beyond the integer range as bad input, never letting them reach the database', async () => {
      const huge = 99_999_999_999;
      const created = await post(ctx, team.member, { major_task: huge, name: 'X', assigned_to_id: huge, due_date: '2026-03-01' });
      expect(created.statusCode).toBe(400);
      expect(Object.keys(created.json().errors).sort()).toEqual(['assigned_to_id', 'major_task']);
      for (const [method, url] of [['GET', `/api/major-tasks/${huge}/`], ['PATCH', `/api/subtasks/${huge}/`], ['GET', `/api/subtasks/?assigned_to=${huge}`]] as const) {
        const response = await callAs(ctx.app, team.manager, { method, url, payload: method === 'PATCH' ? { status: 'completed' } : undefined });
        expect(response.statusCode, url).toBe(400);
      }
    });

    it('names each missing field', async () => {
      const response = await post(ctx, team.member, { description: 'only this' });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json().errors).sort()).toEqual(['assigned_to_id', 'due_date', 'major_task', 'name']);
    });
  });

  describe('PATCH /api/subtasks/{id}/ by the assignee', () => {
    it('sends an ongoing subtask for approval and records when', async () => {
      const work = await insertWork(ctx.app.db, team);

      const response = await patch(ctx, team.member, work.subtaskId, { status: 'pending_approval' });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: work.subtaskId, status: 'pending_approval', submitted_at: expect.stringMatching(ISO_TIMESTAMP), completed_at: null });
    });

    it('refuses to approve their own subtask or set it back, with 403', async () => {
      const work = await insertWork(ctx.app.db, team, { status: 'pending_approval' });
      for (const status of ['completed', 'ongoing']) {
        const response = await patch(ctx, team.member, work.subtaskId, { status });
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({ detail: ASSIGNEE_MAY_ONLY_SUBMIT });
      }
      expect((await subtaskRow(ctx, work.subtaskId)).status).toBe('pending_approval');
    });

    it('refuses any other edit with 403 and changes nothing', async () => {
      const work = await insertWork(ctx.app.db, team);
      for (const payload of [{ name: 'Renamed' }, { due_date: '2027-01-01' }, { priority: 'low' }, { assigned_to_id: team.otherMember.id }, { status: 'pending_approval', name: 'Sneaky' }]) {
        const response = await patch(ctx, team.member, work.subtaskId, payload);
        expect(response.statusCode).toBe(403);
      }
      expect(await subtaskRow(ctx, work.subtaskId)).toMatchObject({ status: 'ongoing', priority: 'medium', dueDate: '2026-06-30', assignedToId: team.member.id });
    });

    it('refuses to send a subtask that is not ongoing, with 400', async () => {
      const work = await insertWork(ctx.app.db, team, { status: 'pending_approval' });
      const response = await patch(ctx, team.member, work.subtaskId, { status: 'pending_approval' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail: ONLY_ONGOING_CAN_BE_SUBMITTED });
    });
  });

  describe('PATCH /api/subtasks/{id}/ by others', () => {
    it.each([
      ['another team member', 'otherMember'],
      ['a manager who neither manages the project nor assigned the subtask', 'otherManager'],
      ['an admin', 'admin'],
    ] as const)('refuses %s with 403', async (_who, key) => {
      const work = await insertWork(ctx.app.db, team);
      const response = await patch(ctx, team[key], work.subtaskId, { status: 'completed' });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ detail: NOT_YOUR_SUBTASK });
      expect((await subtaskRow(ctx, work.subtaskId)).status).toBe('ongoing');
    });

    it("answers 404 for another company's subtask, exactly like an unknown one, changing nothing", async () => {
      const work = await insertWork(ctx.app.db, rival, { status: 'pending_approval' });
      const foreign = await patch(ctx, team.manager, work.subtaskId, { status: 'completed' });
      const unknown = await patch(ctx, team.manager, 987654, { status: 'completed' });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({ detail: 'Subtask not found.' });
      expect(unknown.json()).toEqual(foreign.json());
      expect((await subtaskRow(ctx, work.subtaskId)).status).toBe('pending_approval');
    });
  });

  describe('PATCH /api/subtasks/{id}/ by an approver', () => {
    it('lets the manager of the project approve a subtask someone else assigned', async () => {
      const work = await insertWork(ctx.app.db, team, { status: 'pending_approval', assignedById: team.otherManager.id });
      const response = await patch(ctx, team.manager, work.subtaskId, { status: 'completed' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ status: 'completed', completed_at: expect.stringMatching(ISO_TIMESTAMP) });
    });

    it('lets the assigning manager approve in a project someone else manages', async () => {
      const work = await insertWork(ctx.app.db, team, { status: 'pending_approval', assignedById: team.otherManager.id });
      const response = await patch(ctx, team.otherManager, work.subtaskId, { status: 'completed' });
      expect(response.statusCode).toBe(200);
    });

    it("leaves a manager's own work in a project someone else manages to that project's manager", async () => {
      const work = await insertWork(ctx.app.db, team);
      const created = await post(ctx, team.otherManager, { major_task: work.majorTaskId, name: 'Check the scaffold ties', assigned_to_id: team.otherManager.id, due_date: '2099-03-01' });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json<{ id: number }>().id;
      const pendingOf = async (caller: Caller) => (await callAs(ctx.app, caller, { method: 'GET', url: '/api/pending-approvals/' })).json<{ id: number }[]>().map((subtask) => subtask.id);

      // Done and approved by the same person: refused, and nothing changes.
      const approved = await patch(ctx, team.otherManager, id, { status: 'completed' });
      expect(approved.statusCode).toBe(403);
      expect(approved.json().detail).toBe(ASSIGNEE_MAY_ONLY_SUBMIT);
      expect((await subtaskRow(ctx, id)).status).toBe('ongoing');

      // Sent like anyone's: the project's manager has it to decide, its sender not.
      expect((await patch(ctx, team.otherManager, id, { status: 'pending_approval' })).statusCode).toBe(200);
      expect(await pendingOf(team.otherManager)).not.toContain(id);
      expect(await pendingOf(team.manager)).toContain(id);
      expect((await patch(ctx, team.manager, id, { status: 'completed' })).statusCode).toBe(200);
    });

    it('edits name, description, priority, due date and assignee', async () => {
      const work = await insertWork(ctx.app.db, team);

      const response = await patch(ctx, team.manager, work.subtaskId, {
        name: 'Renamed',
        description: 'More detail',
        priority: 'high',
        due_date: '2026-09-15',
        assigned_to_id: team.otherManager.id,
        assignee_left: false,
      });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        name: 'Renamed',
        description: 'More detail',
        priority: 'high',
        due_date: '2026-09-15',
        assigned_to: { id: team.otherManager.id, email: team.otherManager.email, full_name: null },
        assigned_to_id: team.otherManager.id,
        assignee_left: false,
        status: 'ongoing',
      });
    });

    it("keeps the major task's due date the latest of its subtasks' as due dates move", async () => {
      const work = await insertWork(ctx.app.db, team, { dueDate: '2026-06-30' });
      await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: work.majorTaskId, assignedToId: team.member.id, dueDate: '2026-05-01' });

      await patch(ctx, team.manager, work.subtaskId, { due_date: '2026-10-01' });
      expect(await majorTaskDueDate(ctx, work.majorTaskId)).toBe('2026-10-01');

      await patch(ctx, team.manager, work.subtaskId, { due_date: '2026-04-01' });
      expect(await majorTaskDueDate(ctx, work.majorTaskId)).toBe('2026-05-01');
    });

    it('refuses, under assigned_to_id, an assignee of another company (404) and changes nothing', async () => {
      const work = await insertWork(ctx.app.db, team);
      const response = await patch(ctx, team.manager, work.subtaskId, { assigned_to_id: rival.member.id, name: 'Should not stick' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'User not found.' });
      expect(await subtaskRow(ctx, work.subtaskId)).toMatchObject({ assignedToId: team.member.id, name: expect.not.stringMatching(/^Should not stick$/) });
    });

    it('clears completed_at when a completed subtask is reopened', async () => {
      const work = await insertWork(ctx.app.db, team, { status: 'pending_approval' });
      await patch(ctx, team.manager, work.subtaskId, { status: 'completed' });

      const response = await patch(ctx, team.manager, work.subtaskId, { status: 'ongoing' });

      expect(response.json()).toMatchObject({ status: 'ongoing', completed_at: null });
    });
  });

  describe('the approval flow', () => {
    it('goes ongoing → pending_approval (assignee) → completed (manager approves)', async () => {
      const work = await insertWork(ctx.app.db, team);

      const sent = await patch(ctx, team.member, work.subtaskId, { status: 'pending_approval' });
      expect(sent.json().status).toBe('pending_approval');
      const pending = await callAs(ctx.app, team.manager, { method: 'GET', url: '/api/pending-approvals/' });
      expect(pending.json().map((subtask: { id: number }) => subtask.id)).toContain(work.subtaskId);

      const approved = await patch(ctx, team.manager, work.subtaskId, { status: 'completed' });

      expect(approved.statusCode).toBe(200);
      expect(approved.json()).toMatchObject({ status: 'completed', submitted_at: sent.json().submitted_at, completed_at: expect.stringMatching(ISO_TIMESTAMP) });
      const after = await callAs(ctx.app, team.manager, { method: 'GET', url: '/api/pending-approvals/' });
      expect(after.json().map((subtask: { id: number }) => subtask.id)).not.toContain(work.subtaskId);
      expect(await subtaskRow(ctx, work.subtaskId)).toMatchObject({ status: 'completed', completedAt: expect.any(Date), submittedAt: expect.any(Date) });
    });

    it('goes back to ongoing on decline, and can be sent again', async () => {
      const work = await insertWork(ctx.app.db, team);
      await patch(ctx, team.member, work.subtaskId, { status: 'pending_approval' });

      const declined = await patch(ctx, team.manager, work.subtaskId, { status: 'ongoing' });

      expect(declined.statusCode).toBe(200);
      expect(declined.json()).toMatchObject({ status: 'ongoing', completed_at: null });
      const resent = await patch(ctx, team.member, work.subtaskId, { status: 'pending_approval' });
      expect(resent.statusCode).toBe(200);
      expect(resent.json().status).toBe('pending_approval');
    });

    it('refuses a decision on a status or assignee that changed meanwhile, and changes nothing', async () => {
      const work = await insertWork(ctx.app.db, team, { assignedById: team.otherManager.id });
      const sent = await patch(ctx, team.member, work.subtaskId, { status: 'pending_approval', expected_status: 'ongoing', expected_assigned_to_id: team.member.id });
      expect(sent.json()).toMatchObject({ status: 'pending_approval' });
      const seen = { expected_status: 'pending_approval', expected_assigned_to_id: team.member.id };
      expect((await patch(ctx, team.manager, work.subtaskId, { status: 'completed', ...seen })).statusCode).toBe(200);

      // The other approver (who assigned it) declines what they saw waiting: it was approved meanwhile.
      const declined = await patch(ctx, team.otherManager, work.subtaskId, { status: 'ongoing', comment: 'Redo the joints', ...seen });
      expect(declined.statusCode).toBe(409);
      expect(declined.json().detail).toBe(SUBTASK_CHANGED_MEANWHILE);
      expect(await subtaskRow(ctx, work.subtaskId)).toMatchObject({ status: 'completed', assignedToId: team.member.id });
      const heard = await callAs(ctx.app, team.member, { method: 'GET', url: '/api/notifications/' });
      expect(heard.json().filter((notification: { type: string; subtask_id: number }) => notification.subtask_id === work.subtaskId).map((notification: { type: string }) => notification.type)).not.toContain('task_declined');

      // Nor does the work change hands once it is not what they saw.
      const moved = await patch(ctx, team.otherManager, work.subtaskId, { assigned_to_id: team.otherMember.id, expected_status: 'pending_approval' });
      expect(moved.statusCode).toBe(409);
      expect((await subtaskRow(ctx, work.subtaskId)).assignedToId).toBe(team.member.id);
    });

    it('lets one of two approvers decide at the same moment: the other hears it changed', async () => {
      for (let round = 0; round < 5; round++) {
        const work = await insertWork(ctx.app.db, team, { assignedById: team.otherManager.id });
        await patch(ctx, team.member, work.subtaskId, { status: 'pending_approval' });
        const seen = { expected_status: 'pending_approval', expected_assigned_to_id: team.member.id };
        const answers = await Promise.all([
          patch(ctx, team.manager, work.subtaskId, { status: 'completed', ...seen }),
          patch(ctx, team.otherManager, work.subtaskId, { status: 'ongoing', comment: 'Not yet', ...seen }),
        ]);
        expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
        const winner = answers.find((answer) => answer.statusCode === 200)!.json().status;
        expect((await subtaskRow(ctx, work.subtaskId)).status).toBe(winner);
      }
    });

    it('checks what the caller saw: a status or a user id (or null)', async () => {
      const work = await insertWork(ctx.app.db, team);
      const response = await patch(ctx, team.manager, work.subtaskId, { priority: 'high', expected_assigned_to_id: 'nobody' });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toHaveProperty('expected_assigned_to_id');
      expect((await patch(ctx, team.manager, work.subtaskId, { expected_status: 'ongoing' })).statusCode).toBe(400);
    });
  });

  describe('who does the work (decision record 113)', () => {
    const assigneeOf = async (id: number) => (await subtaskRow(ctx, id)).assignedToId;

    it('keeps approved work with whoever did it: a 409 in the reader\'s language, and their appraisal still counts it', async () => {
      const work = await insertWork(ctx.app.db, team, { status: 'completed' });
      const leiter = await createUser(ctx.app.db, team.company.id, 'manager', { language: 'de' });
      const germanWork = await insertWork(ctx.app.db, team, { status: 'completed', projectManagerId: leiter.id });
      const counted = async (caller: Caller) => (await callAs(ctx.app, team.admin, { method: 'GET', url: `/api/appraisal-report/?user_id=${caller.id}` })).json()[0].completed_tasks;
      const before = { member: await counted(team.member), other: await counted(team.otherMember) };

      const moved = await patch(ctx, team.manager, work.subtaskId, { assigned_to_id: team.otherMember.id, name: 'Renamed too' });
      expect(moved.statusCode).toBe(409);
      expect(moved.json()).toEqual({ detail: APPROVED_WORK_KEEPS_ASSIGNEE });
      const german = await patch(ctx, { ...leiter, access: (await loginAs(ctx.app, leiter)).access }, germanWork.subtaskId, { assigned_to_id: team.otherMember.id });
      expect(german.statusCode).toBe(409);
      expect(german.json().detail).toMatch(/^Diese Teilaufgabe ist abgenommen/);

      expect(await subtaskRow(ctx, work.subtaskId)).toMatchObject({ assignedToId: team.member.id, status: 'completed' });
      expect({ member: await counted(team.member), other: await counted(team.otherMember) }).toEqual(before);
      // Naming the assignee it already has changes no hands, so an edit that sends it is not refused.
      expect((await patch(ctx, team.manager, work.subtaskId, { assigned_to_id: team.member.id, priority: 'high' })).statusCode).toBe(200);
    });

    it('gives approved work to someone else only once it is set back to ongoing', async () => {
      const work = await insertWork(ctx.app.db, team, { status: 'completed' });
      expect((await patch(ctx, team.manager, work.subtaskId, { status: 'ongoing', assigned_to_id: team.otherMember.id })).statusCode).toBe(409);
      expect((await patch(ctx, team.manager, work.subtaskId, { status: 'ongoing' })).statusCode).toBe(200);
      const moved = await patch(ctx, team.manager, work.subtaskId, { assigned_to_id: team.otherMember.id });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json()).toMatchObject({ status: 'ongoing', assigned_to_id: team.otherMember.id });
    });

    it('lets work sent for approval change hands only once it is declined', async () => {
      const work = await insertWork(ctx.app.db, team);
      await patch(ctx, team.member, work.subtaskId, { status: 'pending_approval' });

      for (const payload of [{ assigned_to_id: team.otherMember.id }, { assigned_to_id: team.otherMember.id, status: 'completed' }, { assigned_to_id: team.otherMember.id, status: 'ongoing' }]) {
        const moved = await patch(ctx, team.manager, work.subtaskId, payload);
        expect(moved.statusCode).toBe(409);
        expect(moved.json()).toEqual({ detail: PENDING_WORK_KEEPS_ASSIGNEE });
      }
      expect(await subtaskRow(ctx, work.subtaskId)).toMatchObject({ status: 'pending_approval', assignedToId: team.member.id });

      expect((await patch(ctx, team.manager, work.subtaskId, { status: 'ongoing', comment: 'Someone else finishes it' })).statusCode).toBe(200);
      expect((await patch(ctx, team.manager, work.subtaskId, { assigned_to_id: team.otherMember.id })).statusCode).toBe(200);
      expect(await assigneeOf(work.subtaskId)).toBe(team.otherMember.id);
    });

    it('decides on the status it finds under the lock: a reassignment waiting for an approval is refused (PostgreSQL)', async ({ skip }) => {
      if (ctx.kind !== 'postgres') skip();
      const work = await insertWork(ctx.app.db, team, { status: 'pending_approval' });
      const answer = await whileUncommitted(
        ctx.app.db,
        (tx) => tx.update(subtasks).set({ status: 'completed', completedAt: new Date() }).where(eq(subtasks.id, work.subtaskId)),
        () => patch(ctx, team.manager, work.subtaskId, { assigned_to_id: team.otherMember.id }),
      );
      expect(answer.statusCode, answer.body).toBe(409);
      expect(answer.json().detail).toBe(APPROVED_WORK_KEEPS_ASSIGNEE);
      expect(await assigneeOf(work.subtaskId)).toBe(team.member.id);
    });
  });

  describe('while someone else deletes what it names (PostgreSQL: the embedded database runs one transaction at a time)', () => {
    it('gives no work to a user deleted meanwhile', async ({ skip }) => {
      if (ctx.kind !== 'postgres') skip();
      const work = await insertWork(ctx.app.db, team);
      const leaving = await createUser(ctx.app.db, team.company.id, 'team_member', { managerId: team.manager.id });
      const answer = await whileUncommitted(
        ctx.app.db,
        (tx) => tx.execute(sql`update users set deleted_at = now() where id = ${leaving.id}`),
        () => post(ctx, team.manager, { major_task: work.majorTaskId, name: 'Seal joints', assigned_to_id: leaving.id, due_date: '2099-08-01' }),
      );
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().errors.assigned_to_id).toEqual([INVALID_ASSIGNEE]);
    });

    it('adds no subtask to a major task deleted meanwhile: a 404, not a server error', async ({ skip }) => {
      if (ctx.kind !== 'postgres') skip();
      const work = await insertWork(ctx.app.db, team);
      const answer = await whileUncommitted(
        ctx.app.db,
        (tx) => tx.delete(majorTasks).where(eq(majorTasks.id, work.majorTaskId)),
        () => post(ctx, team.manager, { major_task: work.majorTaskId, name: 'Seal joints', assigned_to_id: team.member.id, due_date: '2099-08-01' }),
      );
      expect(answer.statusCode, answer.body).toBe(404);
    });

    it('answers a subtask made just before its major task went with what was made: a 201, not a 404 (both databases)', async () => {
      const work = await insertWork(ctx.app.db, team);
      let deletion: Promise<unknown> | undefined;
      // Asked while the subtask's transaction is open: the embedded database runs this deletion right
      // after its commit, PostgreSQL once the new row's reference to the major task lets it go.
      deleteAfterCreation = () => (deletion ??= ctx.app.db.transaction((tx) => tx.delete(majorTasks).where(eq(majorTasks.id, work.majorTaskId))));
      try {
        const answer = await post(ctx, team.manager, { major_task: work.majorTaskId, name: 'Seal joints', assigned_to_id: team.member.id, due_date: '2099-08-01' });
        expect(answer.statusCode, answer.body).toBe(201);
        expect(answer.json()).toMatchObject({ id: expect.any(Number), name: 'Seal joints', major_task_id: work.majorTaskId });
      } finally {
        deleteAfterCreation = undefined;
      }
      await deletion;
      expect(await subtaskCount(ctx, work.majorTaskId)).toBe(0);
    });

    it('answers a subtask changed just before its major task went with what was saved: a 200, not a 404 (both databases)', async () => {
      const work = await insertWork(ctx.app.db, team);
      const answer = await whileStatementRuns(
        ctx.queries,
        /^update "subtasks"/,
        () => ctx.app.db.delete(majorTasks).where(eq(majorTasks.id, work.majorTaskId)),
        () => patch(ctx, team.manager, work.subtaskId, { name: 'Seal joints twice', priority: 'high' }),
      );
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toMatchObject({ id: work.subtaskId, name: 'Seal joints twice', priority: 'high', major_task_id: work.majorTaskId });
      expect(await subtaskCount(ctx, work.majorTaskId)).toBe(0);
    });

    it('pins nothing on a sheet deleted meanwhile: a refusal that names the sheet, not a server error', async ({ skip }) => {
      if (ctx.kind !== 'postgres') skip();
      const work = await insertWork(ctx.app.db, team);
      const [sheetId] = await insertSheets(ctx.app.db, [{ companyId: team.company.id, projectId: work.projectId, name: 'Level 1', pageNumber: 1, source: 'image', sourcePath: '/nowhere', createdById: team.manager.id }]);
      const answer = await whileUncommitted(
        ctx.app.db,
        (tx) => tx.delete(sheets).where(eq(sheets.id, sheetId!)),
        () => patch(ctx, team.manager, work.subtaskId, { pin: { sheet_id: sheetId, x: 0.5, y: 0.5 } }),
      );
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().errors).toHaveProperty(['pin.sheet_id']);
    });
  });

  describe('a completed project is view-only', () => {
    it('refuses every change, from the assignee and from the manager, with 400', async () => {
      const work = await insertWork(ctx.app.db, team, { projectStatus: 'completed' });

      const fromAssignee = await patch(ctx, team.member, work.subtaskId, { status: 'pending_approval' });
      const fromManager = await patch(ctx, team.manager, work.subtaskId, { status: 'completed', name: 'Edited' });

      for (const response of [fromAssignee, fromManager]) {
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ detail: COMPLETED_PROJECT_READ_ONLY });
      }
      expect(await subtaskRow(ctx, work.subtaskId)).toMatchObject({ status: 'ongoing', submittedAt: null });
    });

    it('still shows its tasks to every role', async () => {
      const work = await insertWork(ctx.app.db, team, { projectStatus: 'completed' });
      for (const caller of [team.admin, team.manager, team.member]) {
        const detail = await callAs(ctx.app, caller, { method: 'GET', url: `/api/major-tasks/${work.majorTaskId}/` });
        expect(detail.statusCode).toBe(200);
        expect(detail.json().project.status).toBe('completed');
        const list = await callAs(ctx.app, caller, { method: 'GET', url: '/api/subtasks/?project_status=completed' });
        expect(list.json().map((subtask: { id: number }) => subtask.id)).toContain(work.subtaskId);
      }
    });
  });

  describe('GET /api/subtasks/', () => {
    let listTeam: Team;
    let ids: Record<string, number>;
    beforeAll(async () => {
      listTeam = await createTeam(ctx.app);
      const companyId = listTeam.company.id;
      const ongoing = await insertProject(ctx.app.db, companyId, { status: 'ongoing', managerId: listTeam.manager.id });
      const planned = await insertProject(ctx.app.db, companyId, { status: 'planned' });
      const completed = await insertProject(ctx.app.db, companyId, { status: 'completed' });
      const inOngoing = await insertMajorTask(ctx.app.db, companyId, ongoing.id);
      const inPlanned = await insertMajorTask(ctx.app.db, companyId, planned.id);
      const inCompleted = await insertMajorTask(ctx.app.db, companyId, completed.id);
      const add = async (majorTaskId: number, assignedToId: number, status: 'ongoing' | 'pending_approval' | 'completed', dueDate: string) =>
        (await insertSubtask(ctx.app.db, { companyId, majorTaskId, assignedToId, assignedById: listTeam.manager.id, status, dueDate })).id;
      ids = {
        ongoingMine: await add(inOngoing.id, listTeam.member.id, 'ongoing', '2026-04-03'),
        ongoingOthers: await add(inOngoing.id, listTeam.otherMember.id, 'pending_approval', '2026-04-01'),
        plannedMine: await add(inPlanned.id, listTeam.member.id, 'pending_approval', '2026-04-02'),
        completedMine: await add(inCompleted.id, listTeam.member.id, 'completed', '2026-04-04'),
      };
      await insertWork(ctx.app.db, rival);
    });

    async function list(caller: Caller, query = '') {
      const response = await callAs(ctx.app, caller, { method: 'GET', url: `/api/subtasks/${query}` });
      expect(response.statusCode).toBe(200);
      return response.json().map((subtask: { id: number }) => subtask.id);
    }

    it("shows every role all of its company's subtasks (team members included), earliest due first, and nothing of another company", async () => {
      const all = [ids.ongoingOthers, ids.plannedMine, ids.ongoingMine, ids.completedMine];
      for (const caller of [listTeam.admin, listTeam.manager, listTeam.member]) expect(await list(caller)).toEqual(all);
    });

    it('filters by project status, one or a comma list', async () => {
      expect(await list(listTeam.member, '?project_status=ongoing')).toEqual([ids.ongoingOthers, ids.ongoingMine]);
      expect(await list(listTeam.member, '?project_status=ongoing,planned')).toEqual([ids.ongoingOthers, ids.plannedMine, ids.ongoingMine]);
      expect(await list(listTeam.member, '?project_status=completed')).toEqual([ids.completedMine]);
    });

    it('filters by assignee, me or an id, and by status, combined', async () => {
      expect(await list(listTeam.member, '?assigned_to=me')).toEqual([ids.plannedMine, ids.ongoingMine, ids.completedMine]);
      expect(await list(listTeam.admin, `?assigned_to=${listTeam.otherMember.id}`)).toEqual([ids.ongoingOthers]);
      expect(await list(listTeam.member, '?assigned_to=me&status=pending_approval&project_status=ongoing,planned')).toEqual([ids.plannedMine]);
    });

    it("answers 404 for another company's user id, or none, before reading the rest of the query; the list or the file", async () => {
      for (const query of [`?assigned_to=${rival.member.id}`, `?assigned_to=${rival.member.id}&status=done&limit=0`, `?assigned_to=${rival.member.id}&format=csv`, '?assigned_to=2000000000']) {
        const response = await callAs(ctx.app, listTeam.admin, { method: 'GET', url: `/api/subtasks/${query}` });
        expect([response.statusCode, response.json()], query).toEqual([404, { detail: 'User not found.' }]);
      }
      // A person of the company with no work is an empty list, not a 404.
      expect(await list(listTeam.member, `?assigned_to=${listTeam.admin.id}`)).toEqual([]);
    });

    it('refuses malformed filters with field errors', async () => {
      const response = await callAs(ctx.app, listTeam.member, { method: 'GET', url: '/api/subtasks/?project_status=ongoing,cancelled&assigned_to=you&status=done' });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json().errors).sort()).toEqual(['assigned_to', 'project_status', 'status']);
    });
  });
});
