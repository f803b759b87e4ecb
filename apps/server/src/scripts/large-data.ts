import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../platform';
import { findCompanyByName } from '../features/companies/companies.queries';
import { signup } from '../features/companies/companies.service';
import { CODE_PREFIX } from '../features/users/users.rules';
import { hashPassword } from '../lib/passwords';

/**
 * The large contractor of the performance issue, written with set-based SQL (generate_series) so
 * the whole company is a handful of statements on PostgreSQL and on PGlite alike.
 */
export const LARGE_PASSWORD = 'large-password';
export const LARGE_COMPANY_PASSWORD = 'large-company';

export interface LargeShape {
  users: number;
  managers: number;
  /** Team members of the first manager: the appraisal benchmark's team (the others share the rest). */
  firstTeam: number;
  projects: number;
  majorTasksPerProject: number;
  subtasksPerMajorTask: number;
  notifications: number;
}

/** One company at full size: 2,000 users (1 admin, 100 managers), 1,000 projects, 10,000 major tasks, 100,000 subtasks, 200,000 notifications. */
export const FULL_SIZE: LargeShape = {
  users: 2000,
  managers: 100,
  firstTeam: 20,
  projects: 1000,
  majorTasksPerProject: 10,
  subtasksPerMajorTask: 10,
  notifications: 200_000,
};

export interface LargeCompany {
  companyId: number;
  name: string;
  created: boolean;
  admin: string;
  /** The first manager: ten projects and a team of `firstTeam`. */
  manager: string;
  /** A team member of the first manager's team. */
  member: string;
}

export const largeCompanyName = (index: number) => `Large Contractor ${index}`;
const domainOf = (index: number) => `c${index}.large.test`;

/**
 * Seeds `count` large companies of `shape`; a company already there is left as it is, so running
 * it twice is harmless. Each company is one transaction: a failure leaves no half company.
 */
export async function seedLarge(db: Db, { count = 2, shape = FULL_SIZE, today }: { count?: number; shape?: LargeShape; today?: string } = {}): Promise<LargeCompany[]> {
  if (shape.managers < 2 || shape.users < 1 + shape.managers + shape.firstTeam) throw new Error('A large company needs an admin, two managers and the first team.');
  // One (slow) hash serves every account.
  const passwordHash = await hashPassword(LARGE_PASSWORD);
  const seeded: LargeCompany[] = [];
  for (let index = 1; index <= count; index += 1) {
    const name = largeCompanyName(index);
    const domain = domainOf(index);
    const accounts = { admin: `admin@${domain}`, manager: `manager1@${domain}`, member: `member1@${domain}` };
    const existing = await findCompanyByName(db, name);
    if (existing) {
      seeded.push({ companyId: existing.id, name, created: false, ...accounts });
      continue;
    }
    const companyId = await db.transaction(async (tx) => {
      const { company_id: companyId } = await signup(tx, { company_name: name, company_password: LARGE_COMPANY_PASSWORD, email: accounts.admin, password: LARGE_PASSWORD });
      const context = { tx, companyId, domain, passwordHash, shape, today: today ? sql`${today}::date` : sql`current_date` };
      await insertPeople(context);
      await insertWork(context);
      await insertNotifications(context);
      return companyId;
    });
    seeded.push({ companyId, name, created: true, ...accounts });
  }
  // Left as autovacuum would soon leave it: fresh statistics for the planner, and a visibility map
  // that lets index-only scans skip the heap (freshly bulk-loaded pages are not yet all-visible).
  await db.execute(sql`vacuum (analyze)`);
  return seeded;
}

interface SeedContext {
  tx: Tx;
  companyId: number;
  domain: string;
  passwordHash: string;
  shape: LargeShape;
  today: ReturnType<typeof sql>;
}

/** The number in a user's code (MGR-0007 → 7): the seed's handle on who is who. */
const userNumber = (column: string) => sql.raw(`split_part(${column}, '-', 2)::int`);

// Screens name people by their full name (decision record 062). 30 × 30 names: a user's number picks
// one of each, so the first 900 people of a company have names of their own, and a run repeats them.
const FIRST_NAMES = sql.raw(`array['Anna', 'Ben', 'Carla', 'David', 'Elena', 'Felix', 'Greta', 'Hugo', 'Inés', 'Jan', 'Julia', 'Karim', 'Laura', 'Léa', 'Marco',
  'Nina', 'Oscar', 'Paula', 'Quentin', 'Rosa', 'Sara', 'Thomas', 'Clara', 'Víctor', 'Lukas', 'Zoé', 'Mateo', 'Emma', 'Pablo', 'Jonas']`);
const LAST_NAMES = sql.raw(`array['Schmidt', 'García', 'Dubois', 'Müller', 'Fernández', 'Moreau', 'Wagner', 'López', 'Lefèvre', 'Hoffmann', 'Martínez', 'Fontaine',
  'Schäfer', 'Sánchez', 'Girard', 'Koch', 'Ramírez', 'Bonnet', 'Richter', 'Torres', 'Mercier', 'Klein', 'Herrera', 'Lambert', 'Wolf', 'Castillo', 'Roux',
  'Neumann', 'Vega', 'Fournier']`);
const fullNameOf = (number: ReturnType<typeof sql>) => sql`(${FIRST_NAMES})[1 + ${number} % 30] || ' ' || (${LAST_NAMES})[1 + ${number} / 30 % 30]`;

/**
 * Users 2..1+managers are managers (manager1 = number 2), the rest team members. The first
 * manager gets `firstTeam` members; the others share the rest round-robin.
 */
async function insertPeople({ tx, companyId, domain, passwordHash, shape }: SeedContext) {
  const firstMember = 2 + shape.managers;
  await tx.execute(sql`
    insert into users (company_id, email, full_name, password_hash, role, code, designation, mobile_number, created_at)
    select ${companyId},
      case when g < ${firstMember} then 'manager' || (g - 1) else 'member' || (g - ${firstMember} + 1) end || '@' || ${domain},
      ${fullNameOf(sql`g`)},
      ${passwordHash},
      (case when g < ${firstMember} then 'manager' else 'team_member' end)::user_role,
      -- userCode(role, g), in SQL.
      case when g < ${firstMember} then ${CODE_PREFIX.manager} else ${CODE_PREFIX.team_member} end || '-' || lpad(g::text, 4, '0'),
      case when g < ${firstMember} then 'Site Manager' else (array['Carpenter', 'Electrician', 'Plumber', 'Mason', 'Surveyor'])[1 + g % 5] end,
      '+1555' || lpad(g::text, 7, '0'),
      now() - (g % 365) * interval '1 day'
    from generate_series(2, ${shape.users}) g`);
  // The admin, user 1, came from the sign-up, which asks for no name.
  await tx.execute(sql`update users set full_name = ${fullNameOf(sql`1`)} where company_id = ${companyId} and role = 'admin'`);
  await tx.execute(sql`update companies set user_code_seq = ${shape.users} where id = ${companyId}`);
  await tx.execute(sql`
    update users member set manager_id = manager.id
    from users manager
    where member.company_id = ${companyId} and member.role = 'team_member'
      and manager.company_id = ${companyId} and manager.role = 'manager'
      and ${userNumber('manager.code')} = 2 + case
        when ${userNumber('member.code')} - ${firstMember} < ${shape.firstTeam} then 0
        else 1 + (${userNumber('member.code')} - ${firstMember} - ${shape.firstTeam}) % ${shape.managers - 1}
      end`);
  await tx.execute(sql`
    insert into team_members (company_id, user_id, manager_id, performance_score)
    select company_id, id, manager_id, 0 from users where company_id = ${companyId} and role = 'team_member'`);
}

/**
 * Projects go round-robin to the managers, one in ten completed. Each subtask is assigned by the
 * project's manager to a member of that manager's team, due within two months either side of
 * today; in ongoing projects half are ongoing, a quarter pending approval, a quarter completed.
 */
async function insertWork({ tx, companyId, shape, today }: SeedContext) {
  await tx.execute(sql`
    insert into projects (company_id, name, description, start_date, end_date, status, manager_id, created_at)
    select ${companyId},
      (array['Tower', 'Bridge', 'Depot', 'School', 'Clinic', 'Warehouse', 'Station', 'Plaza'])[1 + p % 8] || ' site ' || p,
      'Large-data project ' || p,
      ${today} - 200 + p % 100, ${today} + 60 + p % 300,
      -- Shifted by the manager's round so each manager has exactly one completed project in ten.
      (case when (p + p / ${shape.managers}) % 10 = 0 then 'completed' else 'ongoing' end)::project_status,
      manager.id,
      now() - (p % 200) * interval '1 day'
    from generate_series(1, ${shape.projects}) p
    join users manager on manager.company_id = ${companyId} and manager.role = 'manager' and ${userNumber('manager.code')} = 2 + p % ${shape.managers}`);
  await tx.execute(sql`
    insert into major_tasks (company_id, project_id, name, description, due_date, created_by_id, created_at)
    select ${companyId}, project.id, (array['Groundworks', 'Foundation', 'Frame', 'Roof', 'Services', 'Facade', 'Fit-out', 'Landscaping', 'Snagging', 'Handover'])[1 + (t - 1) % 10] || ' ' || t,
      'Phase ' || t || ' of ' || project.name, null, project.manager_id, project.created_at
    from projects project cross join generate_series(1, ${shape.majorTasksPerProject}) t
    where project.company_id = ${companyId}`);
  await tx.execute(sql`
    with team as (
      select id, manager_id, row_number() over (partition by manager_id order by id) - 1 as position, count(*) over (partition by manager_id) as size
      from users where company_id = ${companyId} and role = 'team_member'
    ), planned as (
      select major_task.id as major_task_id, project.manager_id, project.status as project_status, s,
        major_task.id * ${shape.subtasksPerMajorTask} + s as n, major_task.created_at,
        -- Dealt round the manager's team like cards, so everyone on it has the same share of work.
        row_number() over (partition by project.manager_id order by major_task.id, s) - 1 as deal
      from major_tasks major_task
      join projects project on project.id = major_task.project_id
      cross join generate_series(1, ${shape.subtasksPerMajorTask}) s
      where major_task.company_id = ${companyId}
    ), placed as (
      -- The state moves on by one each round of the deal, so a major task mixes states and, round
      -- after round, each member's own subtasks pass through every state.
      select planned.*, team.id as assignee_id,
        case when project_status = 'completed' or (deal + deal / team.size) % 4 = 3 then 'completed'
          when (deal + deal / team.size) % 4 = 2 then 'pending_approval' else 'ongoing' end as status,
        ${today} + (n * 7 % 121) - 60 as due_date
      from planned join team on team.manager_id = planned.manager_id and team.position = planned.deal % team.size
    )
    insert into subtasks (company_id, major_task_id, name, description, assigned_to_id, assigned_by_id, due_date, status, priority, created_at, submitted_at, completed_at)
    select ${companyId}, major_task_id, 'Subtask ' || n, 'Work package ' || s, assignee_id, manager_id, due_date, status::subtask_status,
      (array['low', 'medium', 'high'])[1 + n % 3]::subtask_priority, created_at,
      case when status <> 'ongoing' then now() - (n % 72) * interval '1 hour' end,
      case when status = 'completed' then now() - (n % 48) * interval '1 hour' end
    from placed`);
  // A major task is due when its last subtask is.
  await tx.execute(sql`
    update major_tasks major_task set due_date = latest.due_date
    from (select major_task_id, max(due_date) as due_date from subtasks where company_id = ${companyId} group by major_task_id) latest
    where major_task.id = latest.major_task_id`);
}

/**
 * Notifications about the company's subtasks, one recipient each, spread over the last 90 days:
 * assignments and decisions go to the assignee, submissions to the project manager; 70 % read.
 */
async function insertNotifications({ tx, companyId, shape }: SeedContext) {
  await tx.execute(sql`
    with numbered as (select id, row_number() over (order by id) - 1 as position from subtasks where company_id = ${companyId}),
      bounds as (select count(*) as total from numbered)
    insert into notifications (company_id, type, message, created_by, subtask_id, created_at)
    select ${companyId},
      (array['task_assignment', 'task_submission', 'task_approved', 'task_declined'])[1 + g % 4],
      case g % 4
        when 0 then assigner.email || ' assigned you ''' || subtask.name || ''' (' || project.name || ')'
        when 1 then assignee.email || ' sent ''' || subtask.name || ''' (' || project.name || ') for approval'
        when 2 then assigner.email || ' approved ''' || subtask.name || ''' (' || project.name || ')'
        else assigner.email || ' declined ''' || subtask.name || ''' (' || project.name || '); it is ongoing again'
      end,
      case g % 4 when 1 then assignee.email else assigner.email end,
      subtask.id,
      now() - (g % 129600) * interval '1 minute'
    from bounds cross join generate_series(1, ${shape.notifications}) g
    join numbered on numbered.position = (g * 7919) % bounds.total
    join subtasks subtask on subtask.id = numbered.id
    join major_tasks major_task on major_task.id = subtask.major_task_id
    join projects project on project.id = major_task.project_id
    join users assignee on assignee.id = subtask.assigned_to_id
    join users assigner on assigner.id = subtask.assigned_by_id`);
  await tx.execute(sql`
    insert into notification_recipients (company_id, notification_id, user_id, is_read, read_at, created_at)
    select ${companyId}, notification.id,
      case when notification.type = 'task_submission' then subtask.assigned_by_id else subtask.assigned_to_id end,
      notification.id % 10 < 7,
      case when notification.id % 10 < 7 then notification.created_at + interval '1 hour' end,
      notification.created_at
    from notifications notification
    join subtasks subtask on subtask.id = notification.subtask_id
    where notification.company_id = ${companyId}`);
}
