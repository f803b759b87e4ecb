import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { describeEachDatabase, type TestContext } from '../test/build-app';
import { userCode } from '../features/users/users.rules';
import { freshClientAddress } from '../test/factories';
import { LARGE_PASSWORD, seedLarge, type LargeCompany, type LargeShape } from './large-data';

// The full size in miniature: the same rules, fast enough for every test run.
const SHAPE: LargeShape = { users: 60, managers: 5, firstTeam: 20, projects: 20, majorTasksPerProject: 3, subtasksPerMajorTask: 4, notifications: 500 };
const TODAY = '2026-06-15';

async function rows<T>(ctx: TestContext, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await ctx.app.db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

describeEachDatabase('large data seed', (ctx) => {
  let seeded: LargeCompany[];

  it('writes two companies of the asked size', async () => {
    seeded = await seedLarge(ctx.app.db, { count: 2, shape: SHAPE, today: TODAY });

    expect(seeded.map((company) => company.created)).toEqual([true, true]);
    const sizes = await rows<Record<string, number>>(
      ctx,
      sql`select c.id,
        (select count(*)::int from users where company_id = c.id) as users,
        (select count(*)::int from users where company_id = c.id and role = 'manager') as managers,
        (select count(*)::int from users where company_id = c.id and role = 'admin') as admins,
        (select count(*)::int from team_members where company_id = c.id) as team_members,
        (select count(*)::int from projects where company_id = c.id) as projects,
        (select count(*)::int from major_tasks where company_id = c.id) as major_tasks,
        (select count(*)::int from subtasks where company_id = c.id) as subtasks,
        (select count(*)::int from notification_recipients where company_id = c.id) as notifications
      from companies c order by c.id`,
    );
    const expected = { users: 60, managers: 5, admins: 1, team_members: 54, projects: 20, major_tasks: 60, subtasks: 240, notifications: 500 };
    expect(sizes).toEqual(seeded.map((company) => ({ id: company.companyId, ...expected })));
    // Codes follow the app's own rule: manager1 is the company's second user.
    const codes = await rows<{ code: string }>(ctx, sql`select code from users where email = ${seeded[0]!.manager}`);
    expect(codes).toEqual([{ code: userCode('manager', 2) }]);
    // Vacuumed as well as analysed: every page of the hot tables all-visible, so index-only scans skip the heap.
    const visibility = await rows<{ relname: string; all_visible: boolean }>(
      ctx,
      sql`select relname, relpages > 0 and relallvisible = relpages as all_visible from pg_class
        where relname in ('subtasks', 'notification_recipients') order by relname`,
    );
    expect(visibility).toEqual([
      { relname: 'notification_recipients', all_visible: true },
      { relname: 'subtasks', all_visible: true },
    ]);
  });

  it('gives the first manager a team of 20 and every other member a manager of their own company', async () => {
    const teams = await rows<{ company_id: number; manager: string; size: number }>(
      ctx,
      sql`select member.company_id, manager.email as manager, count(*)::int as size
        from users member join users manager on manager.id = member.manager_id
        where member.role = 'team_member' and manager.company_id = member.company_id and manager.role = 'manager'
        group by 1, 2`,
    );
    expect(teams.reduce((sum, team) => sum + team.size, 0)).toBe(2 * 54);
    for (const company of seeded) expect(teams.find((team) => team.manager === company.manager)?.size).toBe(20);
  });

  it('gives everyone, the admin too, a full name, each different in a company of 60', async () => {
    const names = await rows<{ company_id: number; unnamed: number; names: number }>(
      ctx,
      sql`select company_id, count(*) filter (where full_name is null)::int as unnamed, count(distinct full_name)::int as names
        from users group by company_id order by company_id`,
    );
    expect(names).toEqual(seeded.map((company) => ({ company_id: company.companyId, unnamed: 0, names: 60 })));
    const firstTwo = [userCode('admin', 1), userCode('manager', 2)];
    expect(await rows(ctx, sql`select email, full_name from users where company_id = ${seeded[0]!.companyId} and code in ${firstTwo} order by id`)).toEqual([
      { email: seeded[0]!.admin, full_name: 'Ben Schmidt' },
      { email: seeded[0]!.manager, full_name: 'Carla Schmidt' },
    ]);
  });

  it('shares each manager’s subtasks evenly over the whole team, so the benchmarked member has work too', async () => {
    // The first manager has 4 projects × 3 major tasks × 4 subtasks = 48 subtasks for a team of 20.
    const shares = await rows<{ email: string; subtasks: number; states: number }>(
      ctx,
      sql`select member.email, count(subtask.id)::int as subtasks, count(distinct subtask.status)::int as states
        from users member join users manager on manager.id = member.manager_id
        left join subtasks subtask on subtask.assigned_to_id = member.id
        where manager.email = ${seeded[0]!.manager} group by member.email`,
    );
    expect(shares).toHaveLength(20);
    expect(shares.map((share) => share.subtasks).sort()).toEqual([...Array(12).fill(2), ...Array(8).fill(3)]);
    expect(shares.find((share) => share.email === seeded[0]!.member)!.states).toBeGreaterThan(1);
  });

  it('assigns every subtask within its company, to the project manager’s team, in every state, priority and due date around today', async () => {
    const [crossing] = await rows<{ count: number }>(
      ctx,
      sql`select count(*)::int as count from subtasks s
        join major_tasks mt on mt.id = s.major_task_id join projects p on p.id = mt.project_id
        join users assignee on assignee.id = s.assigned_to_id
        where assignee.company_id <> s.company_id or mt.company_id <> s.company_id or p.company_id <> s.company_id
          or assignee.manager_id <> p.manager_id or s.assigned_by_id <> p.manager_id`,
    );
    expect(crossing!.count).toBe(0);
    const spread = await rows<{ status: string; priorities: number; due_today: number; overdue: number; future: number }>(
      ctx,
      sql`select status::text, count(distinct priority)::int as priorities,
          count(*) filter (where due_date = ${TODAY})::int as due_today,
          count(*) filter (where due_date < ${TODAY})::int as overdue,
          count(*) filter (where due_date > ${TODAY})::int as future
        from subtasks group by status order by status`,
    );
    expect(spread.map((row) => row.status)).toEqual(['completed', 'ongoing', 'pending_approval']);
    for (const row of spread) {
      expect(row.priorities).toBe(3);
      expect(row.overdue).toBeGreaterThan(0);
      expect(row.future).toBeGreaterThan(0);
    }
    const [projectMix] = await rows<{ completed: number; idle_managers: number }>(
      ctx,
      sql`select (select count(*)::int from projects where status = 'completed') as completed,
        (select count(*)::int from users m where m.role = 'manager'
          and not exists (select 1 from projects p where p.manager_id = m.id and p.status = 'ongoing')) as idle_managers`,
    );
    expect(projectMix!.completed).toBeGreaterThan(0);
    expect(projectMix!.idle_managers).toBe(0);
    const [completedProjects] = await rows<{ open: number }>(
      ctx,
      sql`select count(*)::int as open from subtasks s join major_tasks mt on mt.id = s.major_task_id join projects p on p.id = mt.project_id
        where p.status = 'completed' and s.status <> 'completed'`,
    );
    expect(completedProjects!.open).toBe(0);
  });

  it('sends each notification to someone of its own company, about its own company’s subtask', async () => {
    const [crossing] = await rows<{ count: number }>(
      ctx,
      sql`select count(*)::int as count from notification_recipients r
        join notifications n on n.id = r.notification_id join users u on u.id = r.user_id join subtasks s on s.id = n.subtask_id
        where u.company_id <> r.company_id or n.company_id <> r.company_id or s.company_id <> r.company_id`,
    );
    expect(crossing!.count).toBe(0);
  });

  it('lets the seeded people sign in with the shared password', async () => {
    for (const [email, role] of [[seeded[1]!.admin, 'admin'], [seeded[1]!.manager, 'manager'], [seeded[1]!.member, 'team_member']] as const) {
      const login = await ctx.app.inject({
        method: 'POST',
        url: '/api/token/',
        remoteAddress: freshClientAddress(),
        payload: { email, password: LARGE_PASSWORD, role, company_id: seeded[1]!.companyId },
      });
      expect(login.statusCode, email).toBe(200);
    }
  });

  it('leaves existing companies as they are when run again', async () => {
    const [before] = await rows<{ subtasks: number }>(ctx, sql`select count(*)::int as subtasks from subtasks`);

    const again = await seedLarge(ctx.app.db, { count: 2, shape: SHAPE, today: TODAY });

    expect(again).toEqual(seeded.map((company) => ({ ...company, created: false })));
    expect(await rows(ctx, sql`select count(*)::int as subtasks from subtasks`)).toEqual([before]);
  });
});
