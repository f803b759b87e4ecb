import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { subtaskActivity } from '../../schema/activity';
import { subtasks } from '../../schema/tasks';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppraisalItem } from '@siteboard/shared';
import { users } from '../../schema/users';
import { describeEachDatabase, type TestContext } from '../../test/build-app';
import { createUser, loginAs, type TestUser } from '../../test/factories';
import { callAs, createTeam, insertMajorTask, insertProject, insertSubtask, type Caller, type Team } from '../../test/work-factories';
import { assignSubtasks, dateIn, referenceSubtasks, shiftDays, type PlannedSubtask } from './reports.fixture';

const ZONE = 'Pacific/Kiritimati'; // UTC+14: its date runs a day ahead of UTC for ten hours of every UTC day.
const APPRAISAL = '/api/appraisal-report/';
const TEAM_REPORT = '/projects/api/manager-appraisal-report/';
const PDF = '/api/generate-appraisal-pdf/';

function url(path: string, query: Record<string, string | number | undefined>) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

function get(ctx: TestContext, caller: Caller, path: string, query: Record<string, string | number | undefined> = {}) {
  return callAs(ctx.app, caller, { method: 'GET', url: url(path, query) });
}

async function itemsFrom(ctx: TestContext, caller: Caller, path: string, query: Record<string, string | number | undefined> = {}): Promise<AppraisalItem[]> {
  const response = await get(ctx, caller, path, query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function signIn(ctx: TestContext, user: TestUser): Promise<Caller> {
  return { ...user, access: (await loginAs(ctx.app, user)).access };
}

/** What the approval figures are for subtasks that have no history of decisions (written straight into the tables). */
const NO_DECISIONS = { on_time_completion_rate: null, first_pass_approval_rate: null, declines_received: 0, median_decision_hours: null };

function item(
  user: TestUser,
  counts: { total: number; completed: number; ongoing: number; pending: number; overdue: number; efficiency: number; closedUnfinished?: number },
  figures: Pick<AppraisalItem, keyof typeof NO_DECISIONS> = NO_DECISIONS,
): AppraisalItem {
  return {
    user_id: user.id,
    name: user.email,
    full_name: null,
    code: expect.stringMatching(user.role === 'manager' ? /^MGR-\d{4}$/ : /^TM-\d{4}$/),
    role: user.role,
    efficiency_score: counts.efficiency,
    total_tasks: counts.total,
    completed_tasks: counts.completed,
    ongoing_tasks: counts.ongoing,
    pending_approval_tasks: counts.pending,
    closed_unfinished_tasks: counts.closedUnfinished ?? 0,
    overdue_tasks: counts.overdue,
    ...figures,
  };
}

const NONE = { total: 0, completed: 0, ongoing: 0, pending: 0, overdue: 0, efficiency: 0 };
const REFERENCE = { total: 8, completed: 3, ongoing: 3, pending: 2, overdue: 2, efficiency: 38 };

const byEmail = (a: { email: string }, b: { email: string }) => a.email.toLowerCase().localeCompare(b.email.toLowerCase());

describeEachDatabase('appraisal reports API', (ctx) => {
  let team: Team;
  let rival: Team;
  let today: string;
  /** In the manager's team, with no subtasks at all. */
  let idle: TestUser;
  /** Was in the manager's team, with subtasks, and has been deleted. */
  let gone: TestUser;

  beforeAll(async () => {
    team = await createTeam(ctx.app, { timezone: ZONE });
    rival = await createTeam(ctx.app);
    today = dateIn(ZONE);
    const companyId = team.company.id;
    idle = await createUser(ctx.app.db, companyId, 'team_member', { managerId: team.manager.id });
    gone = await createUser(ctx.app.db, companyId, 'team_member', { managerId: team.manager.id });

    await assignSubtasks(ctx.app.db, companyId, team.member.id, referenceSubtasks(today));
    // Noise that must never reach the member's counts: other people's work, unassigned work, another company's work.
    await assignSubtasks(ctx.app.db, companyId, team.otherMember.id, [
      { status: 'completed', dueDate: today },
      { status: 'ongoing', dueDate: shiftDays(today, -5) },
    ]);
    await assignSubtasks(ctx.app.db, companyId, gone.id, [{ status: 'ongoing', dueDate: shiftDays(today, -5) }]);
    const unassignedTask = await insertMajorTask(ctx.app.db, companyId, (await insertProject(ctx.app.db, companyId)).id);
    await insertSubtask(ctx.app.db, { companyId, majorTaskId: unassignedTask.id, assignedToId: null, status: 'ongoing', dueDate: shiftDays(today, -1) });
    await assignSubtasks(ctx.app.db, rival.company.id, rival.member.id, referenceSubtasks(today));

    await ctx.app.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, gone.id));
  });

  describe(`GET ${APPRAISAL}`, () => {
    it("answers a one-element list with the person's counts and efficiency over all their subtasks", async () => {
      expect(await itemsFrom(ctx, team.admin, APPRAISAL, { user_id: team.member.id })).toEqual([item(team.member, REFERENCE)]);
    });

    it('counts only subtasks due in the range, both ends included', async () => {
      const appraise = (start_date?: string, end_date?: string) => itemsFrom(ctx, team.admin, APPRAISAL, { user_id: team.member.id, start_date, end_date });

      // Due -3, -2, -1, 0 and +1 days: the subtasks due on -3 and +1 sit exactly on the edges.
      expect(await appraise(shiftDays(today, -3), shiftDays(today, 1))).toEqual([
        item(team.member, { total: 5, completed: 1, ongoing: 2, pending: 2, overdue: 2, efficiency: 20 }),
      ]);
      expect(await appraise(shiftDays(today, -2), shiftDays(today, -2))).toEqual([
        item(team.member, { total: 1, completed: 0, ongoing: 0, pending: 1, overdue: 1, efficiency: 0 }),
      ]);
      // One end open: the undated subtask never falls in a range.
      expect(await appraise(today, undefined)).toEqual([item(team.member, { total: 3, completed: 1, ongoing: 1, pending: 1, overdue: 0, efficiency: 33 })]);
      expect(await appraise(undefined, shiftDays(today, -1))).toEqual([item(team.member, { total: 4, completed: 2, ongoing: 1, pending: 1, overdue: 2, efficiency: 50 })]);
      expect(await appraise(shiftDays(today, 30), shiftDays(today, 60))).toEqual([item(team.member, NONE)]);
    });

    it('takes blank dates as no range, as a form without dates sends them', async () => {
      expect(await itemsFrom(ctx, team.admin, APPRAISAL, { user_id: team.member.id, start_date: '', end_date: '' })).toEqual([item(team.member, REFERENCE)]);
    });

    it('gives a person without tasks zeros and an efficiency of 0, and appraises managers too', async () => {
      expect(await itemsFrom(ctx, team.admin, APPRAISAL, { user_id: idle.id })).toEqual([item(idle, NONE)]);
      expect(await itemsFrom(ctx, team.admin, APPRAISAL, { user_id: team.manager.id })).toEqual([item(team.manager, NONE)]);
    });

    it('requires user_id and well-formed dates in order (400)', async () => {
      const missing = await get(ctx, team.admin, APPRAISAL);
      expect(missing.statusCode).toBe(400);
      expect(missing.json().errors).toEqual({ user_id: ['Select a user.'] });

      const reversed = await get(ctx, team.admin, APPRAISAL, { user_id: team.member.id, start_date: today, end_date: shiftDays(today, -1) });
      expect(reversed.statusCode).toBe(400);
      expect(reversed.json().errors).toEqual({ end_date: ['Start date must be on or before the end date.'] });

      const malformed = await get(ctx, team.admin, APPRAISAL, { user_id: team.member.id, start_date: '2026-02-30' });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().errors).toEqual({ start_date: ['Start date must be a real calendar date.'] });
    });

    it("answers 404 for another company's user, an unknown id and a deleted user, and 400 for an admin", async () => {
      for (const userId of [rival.member.id, 2_000_000_000, gone.id]) {
        const response = await get(ctx, team.admin, APPRAISAL, { user_id: userId });
        expect(response.statusCode, String(userId)).toBe(404);
        expect(response.json()).toEqual({ detail: 'User not found.' });
      }
      const admin = await get(ctx, team.admin, APPRAISAL, { user_id: team.admin.id });
      expect(admin.statusCode).toBe(400);
      expect(admin.json().errors).toEqual({ user_id: ['Appraisal reports cover managers and team members only.'] });
    });

    it('is for admins only: 403 for a manager and a team member, 401 without a token', async () => {
      expect((await get(ctx, team.manager, APPRAISAL, { user_id: team.member.id })).statusCode).toBe(403);
      expect((await get(ctx, team.member, APPRAISAL, { user_id: team.member.id })).statusCode).toBe(403);
      expect((await ctx.app.inject({ method: 'GET', url: url(APPRAISAL, { user_id: team.member.id }) })).statusCode).toBe(401);
    });
  });

  describe('overdue is judged against the company’s today', () => {
    it('counts a task due yesterday in the company’s zone as overdue and one due today there as not, whatever the UTC date', async () => {
      // Kiritimati (UTC+14) and Pago Pago (UTC-11) are 25 hours apart: at any instant one of the two
      // dates differs from the UTC date, so a server that used UTC's today would miscount at least one.
      const east = await createTeam(ctx.app, { timezone: 'Pacific/Kiritimati' });
      const west = await createTeam(ctx.app, { timezone: 'Pacific/Pago_Pago' });
      const plan = (zone: string): PlannedSubtask[] => {
        const local = dateIn(zone);
        return [
          { status: 'ongoing', dueDate: shiftDays(local, -1) },
          { status: 'pending_approval', dueDate: shiftDays(local, -1) },
          { status: 'ongoing', dueDate: local },
          { status: 'pending_approval', dueDate: local },
          { status: 'completed', dueDate: shiftDays(local, -1) },
        ];
      };
      await assignSubtasks(ctx.app.db, east.company.id, east.member.id, plan('Pacific/Kiritimati'));
      await assignSubtasks(ctx.app.db, west.company.id, west.member.id, plan('Pacific/Pago_Pago'));
      const expected = { total: 5, completed: 1, ongoing: 2, pending: 2, overdue: 2, efficiency: 20 };

      expect(await itemsFrom(ctx, east.admin, APPRAISAL, { user_id: east.member.id })).toEqual([item(east.member, expected)]);
      expect(await itemsFrom(ctx, west.admin, APPRAISAL, { user_id: west.member.id })).toEqual([item(west.member, expected)]);
      expect(await itemsFrom(ctx, west.manager, TEAM_REPORT)).toEqual([item(west.member, expected)]);
    });
  });

  describe(`GET ${TEAM_REPORT}`, () => {
    it("gives a manager their own active team: not another manager's members, not deleted users", async () => {
      const expected = [
        { email: team.member.email, item: item(team.member, REFERENCE) },
        { email: idle.email, item: item(idle, NONE) },
      ]
        .sort(byEmail)
        .map((entry) => entry.item);
      expect(await itemsFrom(ctx, team.manager, TEAM_REPORT)).toEqual(expected);
      expect(await itemsFrom(ctx, team.otherManager, TEAM_REPORT)).toEqual([
        item(team.otherMember, { total: 2, completed: 1, ongoing: 1, pending: 0, overdue: 1, efficiency: 50 }),
      ]);
    });

    it('applies the date range to every member', async () => {
      const items = await itemsFrom(ctx, team.manager, TEAM_REPORT, { start_date: shiftDays(today, -3), end_date: shiftDays(today, 1) });
      expect(items.find((entry) => entry.user_id === team.member.id)).toEqual(item(team.member, { total: 5, completed: 1, ongoing: 2, pending: 2, overdue: 2, efficiency: 20 }));
      expect(items.find((entry) => entry.user_id === idle.id)).toEqual(item(idle, NONE));
    });

    it("narrows to one member of the manager's team; anyone else is 403, another company's user 404", async () => {
      expect(await itemsFrom(ctx, team.manager, TEAM_REPORT, { user_id: team.member.id })).toEqual([item(team.member, REFERENCE)]);
      for (const outsider of [team.otherMember, team.otherManager, team.manager, team.admin]) {
        const response = await get(ctx, team.manager, TEAM_REPORT, { user_id: outsider.id });
        expect(response.statusCode, outsider.email).toBe(403);
        expect(response.json()).toEqual({ detail: 'Access denied.' });
      }
      for (const unknown of [rival.member.id, gone.id]) {
        const response = await get(ctx, team.manager, TEAM_REPORT, { user_id: unknown });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ detail: 'User not found.' });
      }
    });

    it('gives an admin every active manager and team member of the company, by e-mail', async () => {
      const items = await itemsFrom(ctx, team.admin, TEAM_REPORT);
      const expected = [team.manager, team.otherManager, team.member, team.otherMember, idle].sort(byEmail);
      expect(items.map((entry) => entry.user_id)).toEqual(expected.map((user) => user.id));
      expect(items.find((entry) => entry.user_id === team.member.id)).toEqual(item(team.member, REFERENCE));
      expect(await itemsFrom(ctx, team.admin, TEAM_REPORT, { user_id: team.otherMember.id })).toEqual([
        item(team.otherMember, { total: 2, completed: 1, ongoing: 1, pending: 0, overdue: 1, efficiency: 50 }),
      ]);
      expect((await get(ctx, team.admin, TEAM_REPORT, { user_id: rival.member.id })).statusCode).toBe(404);
      expect((await get(ctx, team.admin, TEAM_REPORT, { user_id: team.admin.id })).statusCode).toBe(400);
    });

    it('refuses team members (403), callers without a token (401) and dates out of order (400)', async () => {
      expect((await get(ctx, team.member, TEAM_REPORT)).statusCode).toBe(403);
      expect((await get(ctx, team.member, TEAM_REPORT, { user_id: team.member.id })).statusCode).toBe(403);
      expect((await ctx.app.inject({ method: 'GET', url: TEAM_REPORT })).statusCode).toBe(401);
      const reversed = await get(ctx, team.manager, TEAM_REPORT, { start_date: today, end_date: shiftDays(today, -1) });
      expect(reversed.statusCode).toBe(400);
      expect(reversed.json().errors).toEqual({ end_date: ['Start date must be on or before the end date.'] });
    });
  });

  describe(`GET ${PDF} refusals`, () => {
    it('follows the rules of the JSON report', async () => {
      expect((await get(ctx, team.member, PDF, { user_id: team.member.id })).statusCode).toBe(403);
      expect((await get(ctx, team.manager, PDF, { user_id: team.member.id })).statusCode).toBe(403);
      expect((await get(ctx, team.admin, PDF, { user_id: rival.member.id })).statusCode).toBe(404);
      expect((await get(ctx, team.admin, PDF, { user_id: team.admin.id })).statusCode).toBe(400);
      expect((await get(ctx, team.admin, PDF)).json().errors).toEqual({ user_id: ['Select a user.'] });
    });
  });

  describe('the person named before the rest of the query', () => {
    const BAD_DATE = { start_date: '2026-02-30' };

    it("answers 404 for another company's user or a deleted one beside a bad date or format, on every report", async () => {
      for (const path of [APPRAISAL, TEAM_REPORT, PDF]) {
        for (const query of [{ user_id: rival.member.id, ...BAD_DATE }, { user_id: gone.id, ...BAD_DATE }, { user_id: rival.member.id, format: 'pdf' }]) {
          if (path === PDF && 'format' in query) continue;
          const response = await get(ctx, team.admin, path, query);
          expect(response.statusCode, `${path} ${JSON.stringify(query)}`).toBe(404);
          expect(response.json()).toEqual({ detail: 'User not found.' });
        }
      }
    });

    it('answers a manager 403 for someone outside their team and 404 for another company, before a bad date', async () => {
      const outsider = await get(ctx, team.manager, TEAM_REPORT, { user_id: team.otherMember.id, ...BAD_DATE });
      expect(outsider.statusCode).toBe(403);
      expect(outsider.json()).toEqual({ detail: 'Access denied.' });
      expect((await get(ctx, team.manager, TEAM_REPORT, { user_id: rival.member.id, ...BAD_DATE })).statusCode).toBe(404);
    });

    it("keeps validation's 400 for the company's person, an admin, and a user_id that names nothing", async () => {
      const own = await get(ctx, team.manager, TEAM_REPORT, { user_id: team.member.id, ...BAD_DATE });
      expect(own.statusCode).toBe(400);
      expect(own.json().errors).toEqual({ start_date: ['Start date must be a real calendar date.'] });
      expect((await get(ctx, team.admin, APPRAISAL, { user_id: team.admin.id, ...BAD_DATE })).json().errors).toEqual({ start_date: ['Start date must be a real calendar date.'] });
      const malformed = await get(ctx, team.admin, APPRAISAL, { user_id: 'someone', ...BAD_DATE });
      expect(malformed.statusCode).toBe(400);
      expect(Object.keys(malformed.json().errors).sort()).toEqual(['start_date', 'user_id']);
    });
  });

  it('documents the three report routes in /api/openapi.json', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    for (const [path, parameters] of [
      [APPRAISAL, ['end_date', 'format', 'start_date', 'user_id']],
      [TEAM_REPORT, ['end_date', 'format', 'limit', 'offset', 'start_date', 'user_id']],
      [PDF, ['end_date', 'start_date', 'user_id']],
    ] as const) {
      const operation = document.paths[path]?.get;
      expect(operation, path).toBeDefined();
      expect(operation.tags).toEqual(['reports']);
      expect(operation.parameters.map((parameter: { name: string }) => parameter.name).sort()).toEqual(parameters);
    }
    expect(document.paths[APPRAISAL].get.responses['200'].content['application/json'].schema.type).toBe('array');
    expect(document.paths[APPRAISAL].get.responses['200'].content['text/csv'].schema.type).toBe('string');
    expect(document.paths[PDF].get.responses['200'].content['application/pdf'].schema).toMatchObject({ type: 'string', format: 'binary' });
  });
});

describeEachDatabase('appraisal reports run a fixed number of SQL statements', (ctx) => {
  /** A manager with `size` team members, each with four subtasks in various states. */
  async function teamOf(companyId: number, size: number): Promise<TestUser> {
    const manager = await createUser(ctx.app.db, companyId, 'manager');
    const today = dateIn('UTC');
    for (let index = 0; index < size; index++) {
      const member = await createUser(ctx.app.db, companyId, 'team_member', { managerId: manager.id });
      await assignSubtasks(ctx.app.db, companyId, member.id, [
        { status: 'completed', dueDate: today },
        { status: 'ongoing', dueDate: shiftDays(today, -1) },
        { status: 'pending_approval', dueDate: today },
        { status: 'ongoing', dueDate: null },
      ]);
    }
    return manager;
  }

  /** The caller has made a request before: its identity is checked from memory, so only the report's own statements count. */
  async function measure(caller: Caller, path: string, query: Record<string, string | number | undefined> = {}) {
    await get(ctx, caller, '/api/profile/', {});
    ctx.queries.length = 0;
    const response = await get(ctx, caller, path, query);
    expect(response.statusCode, response.body).toBe(200);
    return { statements: ctx.queries.length, items: path === PDF ? 1 : (response.json() as AppraisalItem[]).length };
  }

  it('reports on a team of 20 with as many statements as on a team of 3', async () => {
    const team = await createTeam(ctx.app);
    const small = await signIn(ctx, await teamOf(team.company.id, 3));
    const large = await signIn(ctx, await teamOf(team.company.id, 20));
    const range = { start_date: shiftDays(dateIn('UTC'), -7), end_date: shiftDays(dateIn('UTC'), 7) };

    const smallReport = await measure(small, TEAM_REPORT);
    const largeReport = await measure(large, TEAM_REPORT);
    const largeRanged = await measure(large, TEAM_REPORT, range);
    const companyWide = await measure(team.admin, TEAM_REPORT);
    const single = await measure(team.admin, APPRAISAL, { user_id: team.member.id });
    const pdf = await measure(team.admin, PDF, { user_id: team.member.id });

    expect(smallReport.items).toBe(3);
    expect(largeReport.items).toBe(20);
    expect(companyWide.items).toBeGreaterThanOrEqual(27);
    // One statement counts.
    expect(largeReport.statements).toBe(smallReport.statements);
    expect(smallReport.statements).toBe(1);
    expect(largeRanged.statements).toBe(1);
    expect(companyWide.statements).toBe(1);
    expect(single.statements).toBe(1);
    // The PDF also selects the subtasks its table lists.
    expect(pdf.statements).toBe(2);
    if (process.env.SHOW_STATEMENT_COUNTS) {
      console.info(
        [
          `manager report, team of 3: ${smallReport.statements} statements`,
          `manager report, team of 20: ${largeReport.statements} statements (${largeRanged.statements} with a range)`,
          `admin company-wide report, ${companyWide.items} people: ${companyWide.statements} statements`,
          `appraisal report: ${single.statements} statements; PDF: ${pdf.statements} statements`,
        ].join('\n'),
      );
    }
  });
});

describeEachDatabase('the approval figures a foreman is judged by', (ctx) => {
  it('reports on-time completion, first-pass approval, declines and the median hours to a decision, from the history', async () => {
    const team = await createTeam(ctx.app, { timezone: 'Pacific/Auckland' });
    const project = await insertProject(ctx.app.db, team.company.id, { managerId: team.manager.id });
    const majorTask = await insertMajorTask(ctx.app.db, team.company.id, project.id);
    const companyId = team.company.id;
    const subtask = async (status: 'completed' | 'ongoing', completedAt: string | null) => {
      const { id } = await insertSubtask(ctx.app.db, { companyId, majorTaskId: majorTask.id, assignedToId: team.member.id, assignedById: team.manager.id, status, dueDate: '2030-01-10' });
      if (completedAt) await ctx.app.db.update(subtasks).set({ completedAt: new Date(completedAt) }).where(eq(subtasks.id, id));
      return id;
    };
    const at = (hours: number) => new Date(Date.UTC(2030, 0, 5) + hours * 3_600_000);
    /** A status change that arrived at `hours`, its device claiming it was done at `doneHours` (X-Done-At, decision record 109). */
    const change = (subtaskId: number, from: 'ongoing' | 'pending_approval', to: 'ongoing' | 'pending_approval' | 'completed', hours: number, doneHours?: number) => ({
      companyId,
      subtaskId,
      actorId: from === 'ongoing' ? team.member.id : team.manager.id,
      type: 'status_changed' as const,
      fromStatus: from,
      toStatus: to,
      createdAt: at(hours),
      doneAt: doneHours === undefined ? null : at(doneHours),
    });
    // 23:30 UTC on the 9th is already the 10th in Auckland: on time there. Noon UTC on the 10th is the 11th there: late.
    const first = await subtask('completed', '2030-01-09T23:30:00Z');
    const second = await subtask('completed', '2030-01-10T12:00:00Z');
    const third = await subtask('ongoing', null);
    await ctx.app.db.insert(subtaskActivity).values([
      change(first, 'ongoing', 'pending_approval', 0),
      change(first, 'pending_approval', 'completed', 2),
      change(second, 'ongoing', 'pending_approval', 0),
      change(second, 'pending_approval', 'ongoing', 10),
      change(second, 'ongoing', 'pending_approval', 20),
      change(second, 'pending_approval', 'completed', 24),
      change(third, 'ongoing', 'pending_approval', 1),
      // A decline that reached the server 6 hours after its submission, its device claiming 1 hour:
      // the figures count arrivals, which no device can move.
      change(third, 'pending_approval', 'ongoing', 7, 2),
    ]);

    const [report] = await itemsFrom(ctx, team.admin, APPRAISAL, { user_id: team.member.id });
    expect(report).toMatchObject({ total_tasks: 3, completed_tasks: 2, on_time_completion_rate: 50, first_pass_approval_rate: 50, declines_received: 2, median_decision_hours: 5 });
    const [teamReport] = await itemsFrom(ctx, team.manager, TEAM_REPORT, { user_id: team.member.id });
    expect(teamReport).toEqual(report);
    // The admin's file carries the report's figures on each subtask's row, as the team's file has them, headed in the reader's language.
    const csvOf = async (caller: Caller, path: string) => {
      const response = await get(ctx, caller, path, { user_id: team.member.id, format: 'csv' });
      expect(response.statusCode, response.body).toBe(200);
      return parse(response.body, { bom: true, columns: true }) as Record<string, string>[];
    };
    const figures = { 'Efficiency Score (%)': '67', 'Total Tasks': '3', 'Completed Tasks': '2', 'Ongoing Tasks': '1', 'Pending Approval Tasks': '0', 'Overdue Tasks': '0', 'Closed Unfinished Tasks': '0', 'On-time Completion (%)': '50', 'Approved the First Time (%)': '50', 'Declines Received': '2', 'Median Hours to Decision': '5' };
    const adminRows = await csvOf(team.admin, APPRAISAL);
    expect(adminRows).toHaveLength(3);
    for (const row of adminRows) expect(row).toMatchObject({ Person: team.member.email, ...figures });
    expect(await csvOf(team.manager, TEAM_REPORT)).toEqual([expect.objectContaining(figures)]);
    const germanAdmin = await createUser(ctx.app.db, companyId, 'admin', { language: 'de' });
    const [german] = await csvOf({ ...germanAdmin, access: (await loginAs(ctx.app, germanAdmin)).access }, APPRAISAL);
    expect(german).toMatchObject({ 'Pünktlich erledigt (%)': '50', 'Beim ersten Mal abgenommen (%)': '50', Zurückweisungen: '2', 'Median bis Entscheid (Std.)': '5', 'Aufgaben gesamt': '3' });
    // The workbooks carry the same figures, as numbers, under the CSV's headers (in the reader's language); the role in words.
    const sheetOf = async (caller: Caller, path: string) => {
      const response = await get(ctx, caller, path, { user_id: team.member.id, format: 'xlsx' });
      expect(response.statusCode, response.body).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
      const rows = workbook.worksheets[0]!.getSheetValues().slice(1).map((row) => (row as ExcelJS.CellValue[]).slice(1));
      const [header, ...body] = rows as [string[], ...ExcelJS.CellValue[][]];
      return body.map((row) => Object.fromEntries(header.map((name, index) => [name, row[index] ?? null])));
    };
    const numbers = Object.fromEntries(Object.entries(figures).map(([header, value]) => [header, Number(value)]));
    const adminSheet = await sheetOf(team.admin, APPRAISAL);
    expect(adminSheet).toHaveLength(3);
    for (const row of adminSheet) expect(row).toMatchObject({ Person: team.member.email, Role: 'Team Member', ...numbers });
    expect(await sheetOf(team.manager, TEAM_REPORT)).toEqual([expect.objectContaining({ Role: 'Team Member', ...numbers })]);
    const [germanSheet] = await sheetOf({ ...germanAdmin, access: (await loginAs(ctx.app, germanAdmin)).access }, APPRAISAL);
    expect(germanSheet).toMatchObject({ 'Pünktlich erledigt (%)': 50, 'Beim ersten Mal abgenommen (%)': 50, Zurückweisungen: 2, 'Median bis Entscheid (Std.)': 5, 'Aufgaben gesamt': 3 });
    // Every header of the admin's CSV heads a column of the workbook too (the CSV's extra name column aside: the workbook names people by name).
    const csvHeaders = Object.keys(adminRows[0]!).filter((header) => header !== 'Person Name');
    expect(Object.keys(adminSheet[0]!)).toEqual(csvHeaders);
    // Outside the range, nothing is counted.
    const [none] = await itemsFrom(ctx, team.admin, APPRAISAL, { user_id: team.member.id, end_date: '2029-12-31' });
    expect(none).toMatchObject({ total_tasks: 0, on_time_completion_rate: null, first_pass_approval_rate: null, declines_received: 0, median_decision_hours: null });
  });
});
