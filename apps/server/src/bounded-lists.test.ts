/**
 * Every list answers one bounded page, whatever the company's size and whether the caller asked
 * for a page: the rows are bulk-inserted with SQL, as a large contractor's data would be there.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import {
  ACTIVITY_PAGE_SIZE,
  APPRAISALS_MAX_LIMIT,
  MAJOR_TASKS_PER_LISTED_PROJECT,
  PROJECTS_MAX_LIMIT,
  SUBTASKS_MAX_LIMIT,
  SUBTASKS_PER_LISTED_MAJOR_TASK,
  TEAM_MAX_LIMIT,
  USERS_MAX_LIMIT,
  type ActivityEntry,
  type ExpandedProject,
} from '@siteboard/shared';
import { WORKLOAD_TASK_NAMES } from './features/users/team.queries';
import { describeEachDatabase } from './test/build-app';
import { callAs, createTeam, insertMajorTask, insertProject, insertWork, listAs, type Team } from './test/work-factories';

const SUBTASKS = 100_000;
const PEOPLE = 250;
const PROJECTS = 150;
/** Of the member's subtasks, these are ongoing (their workload); the rest wait for approval. */
const ONGOING = WORKLOAD_TASK_NAMES + 10;

describeEachDatabase('bounded lists', (ctx) => {
  let team: Team;
  let crowdedProjectId: number;

  beforeAll(async () => {
    team = await createTeam(ctx.app);
    const companyId = team.company.id;
    const run = (statement: ReturnType<typeof sql>) => ctx.app.db.execute(statement);
    // PEOPLE more team members of the team's manager, each with a team-member record.
    await run(sql`
      insert into users (company_id, email, password_hash, role, code, manager_id)
      select ${companyId}, 'crew' || g || '-' || ${companyId} || '@example.test', 'not a hash', 'team_member', 'CREW-' || g, ${team.manager.id}
      from generate_series(1, ${PEOPLE}) as g`);
    await run(sql`
      insert into team_members (company_id, user_id, manager_id)
      select ${companyId}, id, ${team.manager.id} from users where company_id = ${companyId} and code like 'CREW-%'`);
    await run(sql`
      insert into projects (company_id, name, start_date, end_date, status, manager_id)
      select ${companyId}, 'Bulk project ' || g, '2026-01-01', '2026-12-31', 'ongoing', ${team.manager.id} from generate_series(1, ${PROJECTS}) as g`);
    await run(sql`insert into team_members (company_id, user_id, manager_id) values (${companyId}, ${team.member.id}, ${team.manager.id})`);
    const busyProject = await insertProject(ctx.app.db, companyId, { managerId: team.manager.id, name: 'A busy project' });
    const busyMajorTask = await insertMajorTask(ctx.app.db, companyId, busyProject.id, { createdById: team.manager.id });
    await run(sql`
      insert into subtasks (company_id, major_task_id, name, assigned_to_id, assigned_by_id, due_date, status, priority)
      select ${companyId}, ${busyMajorTask.id}, 'Bulk subtask ' || g, ${team.member.id}, ${team.manager.id},
        current_date + (g % 30), (case when g <= ${ONGOING} then 'ongoing' else 'pending_approval' end)::subtask_status, 'low'
      from generate_series(1, ${SUBTASKS}) as g`);
    // A project with more major tasks than a listed project shows, the first with more subtasks than a listed major task shows.
    crowdedProjectId = (await insertProject(ctx.app.db, companyId, { managerId: team.manager.id, name: 'A crowded project' })).id;
    await run(sql`
      insert into major_tasks (company_id, project_id, name, created_by_id)
      select ${companyId}, ${crowdedProjectId}, 'Bulk major task ' || g, ${team.manager.id} from generate_series(1, ${MAJOR_TASKS_PER_LISTED_PROJECT + 10}) as g`);
    await run(sql`
      insert into subtasks (company_id, major_task_id, name, assigned_to_id, assigned_by_id, due_date, status, priority)
      select ${companyId}, (select min(id) from major_tasks where project_id = ${crowdedProjectId}), 'Crowded subtask ' || g, ${team.otherMember.id}, ${team.manager.id}, current_date, 'ongoing', 'low'
      from generate_series(1, ${SUBTASKS_PER_LISTED_MAJOR_TASK + 5}) as g`);
  });

  it('an unpaged list of 100,000 rows answers one bounded page, with the number of rows in X-Total-Count', async () => {
    const { items, total } = await listAs(ctx.app, team.member, '/api/subtasks/?assigned_to=me');

    expect(items).toHaveLength(SUBTASKS_MAX_LIMIT);
    expect(total).toBe(SUBTASKS);
  });

  it.each([
    ['/api/pending-approvals/', 'manager', SUBTASKS_MAX_LIMIT, SUBTASKS - ONGOING],
    ['/api/users/', 'admin', USERS_MAX_LIMIT, PEOPLE + 5],
    ['/api/projects/', 'member', PROJECTS_MAX_LIMIT, PROJECTS + 2],
    ['/api/team-members/', 'admin', TEAM_MAX_LIMIT, PEOPLE + 1],
    ['/api/team-workload/', 'manager', TEAM_MAX_LIMIT, PEOPLE + 1],
    ['/projects/api/manager-appraisal-report/', 'admin', APPRAISALS_MAX_LIMIT, PEOPLE + 4],
  ] as const)('unpaged %s answers its first page of at most %s rows, and how many there are', async (url, who, pageSize, rows) => {
    const { items, total } = await listAs(ctx.app, team[who], url);

    expect(items).toHaveLength(Math.min(pageSize, rows));
    expect(total).toBe(rows);
  });

  it("a subtask's history of 250 entries comes a page of the latest 100 at a time, oldest first, each page older than the last", async () => {
    // A company of its own: the counts the other tests check stay as they are.
    const crew = await createTeam(ctx.app);
    const { subtaskId } = await insertWork(ctx.app.db, crew);
    await ctx.app.db.execute(sql`
      insert into subtask_activity (company_id, subtask_id, actor_id, type, text)
      select ${crew.company.id}, ${subtaskId}, ${crew.member.id}, 'comment', 'Comment ' || g from generate_series(1, 250) as g`);
    const texts = (entries: ActivityEntry[]) => entries.map((entry) => entry.text);
    const url = `/api/subtasks/${subtaskId}/activity/`;

    const latest = await listAs<ActivityEntry>(ctx.app, crew.member, url);
    expect(latest.total).toBe(250);
    expect(texts(latest.items)).toEqual(Array.from({ length: ACTIVITY_PAGE_SIZE }, (_, index) => `Comment ${151 + index}`));

    const before = await listAs<ActivityEntry>(ctx.app, crew.member, `${url}?before=${latest.items[0]!.id}`);
    expect(before.total).toBe(150);
    expect(texts(before.items)).toEqual(Array.from({ length: ACTIVITY_PAGE_SIZE }, (_, index) => `Comment ${51 + index}`));
    const first = await listAs<ActivityEntry>(ctx.app, crew.member, `${url}?before=${before.items[0]!.id}&limit=80`);
    expect(first.total).toBe(50);
    expect(texts(first.items)).toEqual(Array.from({ length: 50 }, (_, index) => `Comment ${1 + index}`));
    expect((await callAs(ctx.app, crew.member, { method: 'GET', url: `${url}?limit=101` })).statusCode).toBe(400);
  });

  it('a listed project carries a bounded number of major tasks and subtasks; the project itself answers them all', async () => {
    const { items } = await listAs<ExpandedProject>(ctx.app, team.member, `/api/projects/?expand=major_tasks&search=${encodeURIComponent('A crowded project')}`);
    const opened: ExpandedProject = (await callAs(ctx.app, team.member, { method: 'GET', url: `/api/projects/${crowdedProjectId}/?expand=major_tasks` })).json();
    const listed = items[0]!;

    expect(listed.major_tasks).toHaveLength(MAJOR_TASKS_PER_LISTED_PROJECT);
    expect(listed.major_tasks.map((task) => task.id)).toEqual(opened.major_tasks.slice(0, MAJOR_TASKS_PER_LISTED_PROJECT).map((task) => task.id));
    expect(listed.major_tasks[0]!.subtasks.map((subtask) => subtask.id)).toEqual(opened.major_tasks[0]!.subtasks.slice(0, SUBTASKS_PER_LISTED_MAJOR_TASK).map((subtask) => subtask.id));
    expect(opened.major_tasks).toHaveLength(MAJOR_TASKS_PER_LISTED_PROJECT + 10);
    expect(opened.major_tasks[0]!.subtasks).toHaveLength(SUBTASKS_PER_LISTED_MAJOR_TASK + 5);
  });

  it("a workload item names a bounded number of a member's tasks and counts them all (the busiest comes last, on the second page)", async () => {
    const { items } = await listAs<{ user_id: number; tasks: string[]; task_count: number }>(ctx.app, team.manager, '/api/team-workload/?offset=200');
    const member = items.find((item) => item.user_id === team.member.id)!;

    expect(member.tasks).toHaveLength(WORKLOAD_TASK_NAMES);
    expect(member.task_count).toBe(ONGOING);
  });
});
