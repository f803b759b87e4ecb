import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../apps/server/src/platform';

/**
 * The benchmark's company, written with a handful of set-based statements (never one round trip
 * per user): 1 admin, `managers` managers, the rest team members spread over the managers; one
 * ongoing project per manager, managed by them (where they create major tasks: the API asks only
 * that the project is not completed and the caller a manager; one each, so concurrent creations
 * by different managers do not share a project row's lock); one major task per manager in their
 * project (so concurrent subtask creations by different managers do not queue on one major-task
 * row); `pendingSubtasks` subtasks waiting
 * for approval, each assigned by a team member's manager under that manager's major task; and
 * one login (refresh-token family) per user, so access tokens can be minted as the server does.
 */
export interface FixtureOptions {
  users: number;
  managers: number;
  pendingSubtasks: number;
  passwordHash: string;
  companyName: string;
  /** Subtask names are this prefix and a number; notifications are matched by it. */
  subtaskPrefix: string;
  /** A due date no sweep reacts to during the run (not tomorrow). */
  dueDate: string;
}

export interface FixtureUser {
  id: number;
  email: string;
  role: 'admin' | 'manager' | 'team_member';
  managerId: number | null;
  family: string;
}

export interface Fixture {
  companyId: number;
  users: FixtureUser[];
  /** Project of each manager (ongoing, managed by them), by manager id. */
  projectOf: Map<number, number>;
  /** Major task of each manager, by manager id. */
  majorTaskOf: Map<number, number>;
  /** The waiting subtasks: their number (name suffix), id, assignee and assigner. */
  pending: { key: number; id: number; assigneeId: number; assignerId: number }[];
  databaseVersion: string;
}

async function rows<Row>(db: Db, query: SQL): Promise<Row[]> {
  return ((await db.execute(query)) as unknown as { rows: Row[] }).rows;
}

export async function writeFixture(db: Db, options: FixtureOptions): Promise<Fixture> {
  const { managers, passwordHash } = options;
  const members = options.users - 1 - managers;
  if (members < 1) throw new Error('The fixture needs at least one team member: raise BENCH_CLIENTS.');

  const [company] = await rows<{ id: number }>(
    db,
    sql`insert into companies (name, password_hash, user_code_seq) values (${options.companyName}::text, ${passwordHash}::text, ${options.users}::int) returning id`,
  );
  const companyId = company.id;

  await db.execute(sql`
    insert into users (company_id, email, password_hash, role, code)
    select ${companyId}::int,
      case when i = 1 then 'admin@bench.test' else 'manager' || (i - 1) || '@bench.test' end,
      ${passwordHash}::text,
      (case when i = 1 then 'admin' else 'manager' end)::user_role,
      case when i = 1 then 'ADM-' else 'MGR-' end || lpad(i::text, greatest(4, length(i::text)), '0')
    from generate_series(1, ${1 + managers}::int) as i
    order by i`);

  await db.execute(sql`
    with boss as (
      select id, (row_number() over (order by id) - 1)::int as k from users where company_id = ${companyId}::int and role = 'manager'
    )
    insert into users (company_id, email, password_hash, role, code, manager_id)
    select ${companyId}::int, 'member' || i || '@bench.test', ${passwordHash}::text, 'team_member'::user_role,
      'TM-' || lpad((${1 + managers}::int + i)::text, greatest(4, length((${1 + managers}::int + i)::text)), '0'), boss.id
    from generate_series(1, ${members}::int) as i join boss on boss.k = i % ${managers}::int
    order by i`);

  await db.execute(sql`
    insert into team_members (company_id, user_id, manager_id)
    select company_id, id, manager_id from users where company_id = ${companyId}::int and role = 'team_member' order by id`);

  await db.execute(sql`
    insert into projects (company_id, name, description, start_date, end_date, status, manager_id)
    select ${companyId}::int, 'Bench project ' || k, 'WebSocket benchmark', current_date - 30, current_date + 365, 'ongoing'::project_status, m.id
    from (select id, (row_number() over (order by id))::int as k from users where company_id = ${companyId}::int and role = 'manager') as m
    order by m.k`);

  await db.execute(sql`
    insert into major_tasks (company_id, project_id, name, description, due_date, created_by_id)
    select ${companyId}::int, p.id, 'Bench major task of ' || p.name, '', ${options.dueDate}::date, p.manager_id
    from projects p where p.company_id = ${companyId}::int
    order by p.id`);

  // Waiting subtasks: the n-th goes to the n-th team member (round robin), assigned by their manager.
  await db.execute(sql`
    with tm as (select id, manager_id, (row_number() over (order by id) - 1)::int as k from users where company_id = ${companyId}::int and role = 'team_member'),
    mt as (select id, created_by_id from major_tasks where company_id = ${companyId}::int)
    insert into subtasks (company_id, major_task_id, name, description, assigned_to_id, assigned_by_id, due_date, status, priority, submitted_at)
    select ${companyId}::int, mt.id, ${options.subtaskPrefix}::text || n, '', tm.id, tm.manager_id, ${options.dueDate}::date, 'pending_approval'::subtask_status, 'medium'::subtask_priority, now()
    from generate_series(1, ${options.pendingSubtasks}::int) as n
    join tm on tm.k = (n - 1) % ${members}::int
    join mt on mt.created_by_id = tm.manager_id
    order by n`);

  await db.execute(sql`
    insert into refresh_tokens (jti, family, user_id, expires_at)
    select gen_random_uuid(), gen_random_uuid(), id, now() + interval '7 days' from users where company_id = ${companyId}::int order by id`);
  await db.execute(sql`analyze`);

  const users = await rows<{ id: number; email: string; role: FixtureUser['role']; manager_id: number | null; family: string }>(
    db,
    sql`select u.id, u.email, u.role, u.manager_id, r.family::text as family
        from users u join refresh_tokens r on r.user_id = u.id where u.company_id = ${companyId}::int order by u.id`,
  );
  const projects = await rows<{ id: number; manager_id: number }>(db, sql`select id, manager_id from projects where company_id = ${companyId}::int`);
  const majorTasks = await rows<{ id: number; created_by_id: number }>(db, sql`select id, created_by_id from major_tasks where company_id = ${companyId}::int`);
  const prefixLength = options.subtaskPrefix.length + 1;
  const pending = await rows<{ key: number; id: number; assigned_to_id: number; assigned_by_id: number }>(
    db,
    sql`select substr(name, ${prefixLength}::int)::int as key, id, assigned_to_id, assigned_by_id
        from subtasks where company_id = ${companyId}::int and status = 'pending_approval' order by id`,
  );
  const [version] = await rows<{ version: string }>(db, sql`select version()`);

  return {
    companyId,
    users: users.map((row) => ({ id: row.id, email: row.email, role: row.role, managerId: row.manager_id, family: row.family })),
    projectOf: new Map(projects.map((row) => [row.manager_id, row.id])),
    majorTaskOf: new Map(majorTasks.map((row) => [row.created_by_id, row.id])),
    pending: pending.map((row) => ({ key: row.key, id: row.id, assigneeId: row.assigned_to_id, assignerId: row.assigned_by_id })),
    databaseVersion: version.version,
  };
}
