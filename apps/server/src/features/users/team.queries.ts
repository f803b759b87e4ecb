import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TeamMember, TeamWorkloadItem } from '@siteboard/shared';
import { type DbOrTx, builtOncePerDatabase } from '../../platform';
import { companies } from '../../schema/companies';
import { projects } from '../../schema/projects';
import { majorTasks, subtasks } from '../../schema/tasks';
import { teamMembers, users } from '../../schema/users';
import { byShownName } from './users.queries';
import { matchingRowCount, toPage, withPage, type Page, type PageRequest } from '../../lib/lists';

/** A workload item names at most this many of the member's ongoing subtasks (the soonest due); task_count counts them all. */
export const WORKLOAD_TASK_NAMES = 50;

const managers = alias(users, 'managers');

/**
 * Team-member records of the company's active users, with user, company and manager joined in
 * (one query); with `managerId`, only that manager's team.
 */
export async function listTeamMembers(db: DbOrTx, companyId: number, filter: { managerId?: number; userId?: number } = {}, page: PageRequest = {}): Promise<Page<TeamMember>> {
  const query = db
    .select({
      id: teamMembers.id,
      userId: users.id,
      userEmail: users.email,
      userFullName: users.fullName,
      companyId: companies.id,
      companyName: companies.name,
      managerId: managers.id,
      managerEmail: managers.email,
      managerFullName: managers.fullName,
      performanceScore: teamMembers.performanceScore,
      total: matchingRowCount(),
    })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .innerJoin(companies, eq(companies.id, teamMembers.companyId))
    .leftJoin(managers, eq(managers.id, teamMembers.managerId))
    .where(
      and(
        eq(teamMembers.companyId, companyId),
        eq(users.companyId, companyId),
        isNull(users.deletedAt),
        filter.managerId === undefined ? undefined : eq(teamMembers.managerId, filter.managerId),
        filter.userId === undefined ? undefined : eq(teamMembers.userId, filter.userId),
      ),
    )
    .orderBy(byShownName(users), asc(teamMembers.id))
    .$dynamic();
  const rows = await withPage(query, page);
  return toPage(
    rows,
    page,
    (row) => ({
      id: row.id,
      user: { id: row.userId, email: row.userEmail, full_name: row.userFullName, company: { id: row.companyId, name: row.companyName } },
      manager: row.managerId === null || row.managerEmail === null ? null : { id: row.managerId, email: row.managerEmail, full_name: row.managerFullName },
      performance_score: row.performanceScore,
    }),
    async () => (await listTeamMembers(db, companyId, filter, { limit: 1 })).total,
  );
}

/** The statement behind listTeamWorkload, built once and prepared. */
const teamWorkloadStatement = builtOncePerDatabase((db) => {
  const companyId = sql.placeholder('companyId');
  const team = db.$with('team').as(
    db
      .select({ userId: users.id, email: users.email, fullName: users.fullName })
      .from(teamMembers)
      .innerJoin(users, eq(users.id, teamMembers.userId))
      .where(and(eq(teamMembers.companyId, companyId), eq(teamMembers.managerId, sql.placeholder('managerId')), eq(users.companyId, companyId), isNull(users.deletedAt))),
  );
  // The team's ongoing subtasks, on the assignee index.
  const work = db.$with('work').as(
    db
      .select({ id: subtasks.id, assigneeId: subtasks.assignedToId, name: subtasks.name, dueDate: subtasks.dueDate, majorTaskId: subtasks.majorTaskId })
      .from(subtasks)
      .where(and(eq(subtasks.companyId, companyId), eq(subtasks.status, 'ongoing'), inArray(subtasks.assignedToId, db.select({ id: team.userId }).from(team)))),
  );
  // Whether the project is active is looked up once per major task (~90 for a team of 20), not
  // once per subtask (~450): those lookups were most of the statement's time.
  const activeMajorTasks = db
    .select({ id: majorTasks.id })
    .from(majorTasks)
    .innerJoin(projects, eq(projects.id, majorTasks.projectId))
    .where(and(inArray(majorTasks.id, db.selectDistinct({ id: work.majorTaskId }).from(work)), eq(majorTasks.companyId, companyId), inArray(projects.status, ['ongoing', 'planned'])));
  // Each assignee's load, aggregated before it meets the team: the team joins ~20 rows, not ~450
  // (joined first, PGlite's planner compared every member with every subtask).
  const load = db.$with('load').as(
    db
      .select({
        assigneeId: work.assigneeId,
        // The names of the soonest due only: the count says how many there are.
        names: sql<string[]>`(array_agg(${work.name} order by ${work.dueDate} asc nulls last, ${work.id}))[1:${sql.raw(String(WORKLOAD_TASK_NAMES))}]`.as('names'),
        taskCount: count().as('task_count'),
      })
      .from(work)
      .where(inArray(work.majorTaskId, activeMajorTasks))
      .groupBy(work.assigneeId),
  );
  const taskCount = sql<number>`coalesce(${load.taskCount}, 0)`.mapWith(Number);
  return db
    .with(team, work, load)
    .select({
      userId: team.userId,
      email: team.email,
      fullName: team.fullName,
      names: load.names,
      taskCount,
      total: matchingRowCount(),
    })
    .from(team)
    .leftJoin(load, eq(load.assigneeId, team.userId))
    .orderBy(taskCount, byShownName(team), asc(team.userId))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('list_team_workload');
});

/**
 * The manager's active team members, least loaded first (then by email), each with the names of
 * their ongoing subtasks in ongoing or planned projects, soonest due first (work in a completed
 * project is no one's load). One statement that answers names, not whole subtasks.
 */
export async function listTeamWorkload(db: DbOrTx, companyId: number, managerId: number, page: Required<Pick<PageRequest, 'limit'>> & PageRequest): Promise<Page<TeamWorkloadItem>> {
  const rows = await teamWorkloadStatement(db).execute({ companyId, managerId, limit: page.limit, offset: page.offset ?? 0 });
  return toPage(
    rows,
    page,
    (row) => ({ user_id: row.userId, email: row.email, full_name: row.fullName, tasks: row.names ?? [], task_count: row.taskCount }),
    async () => (await listTeamMembers(db, companyId, { managerId }, { limit: 1 })).total,
  );
}

/**
 * Creates the user's record or points the existing one at the manager, in one statement (two
 * concurrent calls cannot both insert). The score changes only when given. Answers whether a
 * row was created.
 */
export async function upsertTeamMember(db: DbOrTx, values: { companyId: number; userId: number; managerId: number; performanceScore?: number }) {
  const [row] = await db
    .insert(teamMembers)
    .values({ companyId: values.companyId, userId: values.userId, managerId: values.managerId, performanceScore: values.performanceScore ?? 0 })
    .onConflictDoUpdate({
      target: teamMembers.userId,
      set: values.performanceScore === undefined ? { managerId: values.managerId } : { managerId: values.managerId, performanceScore: values.performanceScore },
    })
    // xmax is 0 only on a freshly inserted row version.
    .returning({ id: teamMembers.id, created: sql<boolean>`(xmax = 0)` });
  return row!;
}

export async function deleteTeamMember(db: DbOrTx, companyId: number, userId: number) {
  await db.delete(teamMembers).where(and(eq(teamMembers.companyId, companyId), eq(teamMembers.userId, userId)));
}
