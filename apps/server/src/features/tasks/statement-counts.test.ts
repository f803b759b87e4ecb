import { beforeAll, expect, it } from 'vitest';
import { SUBTASKS_MAX_LIMIT, type ActivityEntry, type SubtaskStatus } from '@siteboard/shared';
import { projects } from '../../schema/projects';
import { majorTasks, subtasks } from '../../schema/tasks';
import { describeEachDatabase, type TestContext } from '../../test/build-app';
import { callAs, createTeam, insertWork, listAs, type Caller, type Team } from '../../test/work-factories';

const LISTS = [
  '/api/projects/',
  '/api/projects/?expand=major_tasks',
  '/api/subtasks/',
  '/api/subtasks/?project_status=ongoing,planned&assigned_to=me',
  '/api/subtasks/?status=ongoing&assigned_to=my_team',
  '/api/pending-approvals/',
  '/api/pending-approvals/?limit=20&offset=2',
  '/api/tasks-due-today/',
  '/api/tasks-due-today/?limit=20',
];

function todayIn(timeZone: string) {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

/**
 * Inserts projects, each with major tasks, each with subtasks, in three statements; subtasks
 * alternate between ongoing and pending_approval, all due today, so every list has rows.
 */
async function insertBulk(ctx: TestContext, team: Team, counts: { projects: number; majorTasks: number; subtasks: number }) {
  const companyId = team.company.id;
  const today = todayIn('UTC');
  const projectRows = await ctx.app.db
    .insert(projects)
    .values(Array.from({ length: counts.projects }, (_, i) => ({ companyId, name: `Bulk project ${i}`, startDate: '2026-01-01', endDate: '2026-12-31', managerId: team.manager.id })))
    .returning({ id: projects.id });
  const majorTaskRows = await ctx.app.db
    .insert(majorTasks)
    .values(projectRows.flatMap((project) => Array.from({ length: counts.majorTasks }, (_, i) => ({ companyId, projectId: project.id, name: `Bulk major task ${i}`, createdById: team.manager.id }))))
    .returning({ id: majorTasks.id });
  const statuses: SubtaskStatus[] = ['ongoing', 'pending_approval'];
  await ctx.app.db.insert(subtasks).values(
    majorTaskRows.flatMap((majorTask) =>
      Array.from({ length: counts.subtasks }, (_, i) => ({
        companyId,
        majorTaskId: majorTask.id,
        name: `Bulk subtask ${i}`,
        assignedToId: team.member.id,
        assignedById: team.manager.id,
        dueDate: today,
        status: statuses[i % 2]!,
      })),
    ),
  );
}

/**
 * How many SQL statements one request runs, and how many rows it answered. The caller has made a
 * request before, so its identity is known and checked without a statement (decision record 017).
 */
async function measure(ctx: TestContext, caller: Caller, url: string) {
  await callAs(ctx.app, caller, { method: 'GET', url: '/api/profile/' });
  ctx.queries.length = 0;
  const response = await callAs(ctx.app, caller, { method: 'GET', url });
  expect(response.statusCode).toBe(200);
  const body = response.json() as { major_tasks: { subtasks?: unknown[] }[] }[];
  const rows = url.includes('expand') ? body.flatMap((project) => project.major_tasks.flatMap((task) => task.subtasks ?? [])).length : body.length;
  return { statements: ctx.queries.length, rows };
}

describeEachDatabase('work lists run a bounded number of SQL statements', (ctx) => {
  let team: Team;
  const small = new Map<string, { statements: number; rows: number }>();
  beforeAll(async () => {
    team = await createTeam(ctx.app);
    await insertBulk(ctx, team, { projects: 5, majorTasks: 1, subtasks: 2 });
    for (const caller of [team.admin, team.manager, team.member]) {
      for (const url of LISTS) small.set(`${caller.role} ${url}`, await measure(ctx, caller, url));
    }
    await insertBulk(ctx, team, { projects: 20, majorTasks: 5, subtasks: 4 });
  });

  it('runs as many statements for 400+ subtasks as for 10', async () => {
    const report: string[] = [];
    for (const caller of [team.admin, team.manager, team.member]) {
      for (const url of LISTS) {
        const before = small.get(`${caller.role} ${url}`)!;
        const after = await measure(ctx, caller, url);
        report.push(`${caller.role} GET ${url}: ${before.statements} statements for ${before.rows} rows, ${after.statements} for ${after.rows}`);
        expect(after.rows, url).toBeGreaterThanOrEqual(before.rows);
        expect(after.statements, `${caller.role} ${url}`).toBe(before.statements);
        expect(after.statements, `${caller.role} ${url}`).toBeLessThanOrEqual(4);
      }
    }
    if (process.env.SHOW_STATEMENT_COUNTS) console.info(report.join('\n'));
  });

  it("lists a project's major tasks and subtasks in as many statements for a project of 20 subtasks as for one of 2", async () => {
    const bulk = await ctx.app.db.select({ id: projects.id, name: projects.name }).from(projects).orderBy(projects.id);
    const small = bulk.find((project) => project.name === 'Bulk project 0')!;
    const large = bulk.findLast((project) => project.name === 'Bulk project 0')!;
    const pages = (projectId: number) => [`/api/projects/${projectId}/major-tasks/`, `/api/projects/${projectId}/major-tasks/?search=major&limit=20`, `/api/projects/${projectId}/subtasks/?limit=20`, `/api/projects/${projectId}/subtasks/?search=bulk&pinned=false&limit=20&offset=1`];
    for (const caller of [team.admin, team.manager, team.member]) {
      const [smallPages, largePages] = [pages(small.id), pages(large.id)];
      for (const [i, url] of smallPages.entries()) {
        const before = await measure(ctx, caller, url);
        const after = await measure(ctx, caller, largePages[i]!);
        expect(after.rows, largePages[i]).toBeGreaterThan(before.rows);
        // The guard's look-up of the project, then the page and its total in one statement.
        expect([before.statements, after.statements], `${caller.role} ${url}`).toEqual([2, 2]);
      }
    }
  });

  it('loads the admin dashboard in five statements, however many projects and people', async () => {
    const statementsOfDashboard = async () => {
      await callAs(ctx.app, team.admin, { method: 'GET', url: '/api/profile/' });
      ctx.queries.length = 0;
      const response = await callAs(ctx.app, team.admin, { method: 'GET', url: '/api/admin-dashboard/' });
      expect(response.statusCode).toBe(200);
      return { statements: ctx.queries.length, projects: (response.json() as { ongoing_projects: { total: number } }).ongoing_projects.total };
    };
    const large = await statementsOfDashboard();
    expect(large.projects).toBe(25);
    expect(large.statements).toBe(5);
  });

  it('lists a full page where it matters', async () => {
    expect((await measure(ctx, team.admin, '/api/subtasks/')).rows).toBe(SUBTASKS_MAX_LIMIT);
    expect((await measure(ctx, team.member, '/api/projects/?expand=major_tasks')).rows).toBeGreaterThanOrEqual(200);
    expect((await measure(ctx, team.manager, '/api/pending-approvals/')).rows).toBe(SUBTASKS_MAX_LIMIT);
    expect((await measure(ctx, team.manager, '/api/tasks-due-today/')).rows).toBe(SUBTASKS_MAX_LIMIT);
  });

  it("reads a subtask's timeline in as many statements after 40 reassignments as after one", async () => {
    const work = await insertWork(ctx.app.db, team);
    const reassign = async (to: Caller) => expect((await callAs(ctx.app, team.manager, { method: 'PATCH', url: `/api/subtasks/${work.subtaskId}/`, payload: { assigned_to_id: to.id } })).statusCode).toBe(200);
    const statementsOfTimeline = async () => {
      await callAs(ctx.app, team.member, { method: 'GET', url: '/api/profile/' });
      ctx.queries.length = 0;
      const response = await callAs(ctx.app, team.member, { method: 'GET', url: `/api/subtasks/${work.subtaskId}/activity/` });
      expect(response.statusCode).toBe(200);
      return { statements: ctx.queries.length, named: (response.json() as ActivityEntry[]).filter((entry) => entry.changes?.assigned_to?.to?.full_name === 'Otto Other').length };
    };
    await callAs(ctx.app, team.admin, { method: 'PATCH', url: `/api/users/${team.otherMember.id}/`, payload: { full_name: 'Otto Other' } });
    await reassign(team.otherMember);
    const one = await statementsOfTimeline();
    for (let i = 0; i < 20; i++) {
      await reassign(team.member);
      await reassign(team.otherMember);
    }
    const many = await statementsOfTimeline();
    expect([one.named, many.named]).toEqual([1, 21]);
    expect(many.statements).toBe(one.statements);
    expect(many.statements).toBeLessThanOrEqual(2);
  });

  it('asks who may comment in one statement before the write, not in a transaction of its own', async () => {
    const [subtask] = (await listAs<{ id: number }>(ctx.app, team.member, '/api/subtasks/?assigned_to=me&limit=1')).items;
    await callAs(ctx.app, team.member, { method: 'GET', url: '/api/profile/' });
    ctx.queries.length = 0;
    const response = await callAs(ctx.app, team.member, { method: 'POST', url: `/api/subtasks/${subtask!.id}/comments/`, payload: { text: 'Done on site' } });
    expect(response.statusCode).toBe(201);
    // The question before the body is read, then the write's one transaction (which asks again under its locks).
    expect(ctx.queries.filter((sql) => /^\s*begin/i.test(sql))).toHaveLength(1);
    expect(ctx.queries.length).toBeLessThanOrEqual(10);
  });
});
