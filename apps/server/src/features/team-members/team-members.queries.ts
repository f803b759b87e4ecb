import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TeamMember, TeamWorkloadItem } from '@siteboard/shared';
import { builtOncePerDatabase, type DbOrTx } from '../../db/client';
import { companies } from '../../db/schema/companies';
import { projects } from '../../db/schema/projects';
import { majorTasks, subtasks } from '../../db/schema/tasks';
import { teamMembers, users } from '../../db/schema/users';

const managers = alias(users, 'managers');

/**
 * Team-member records of the company's active users, with user, company and manager joined in
 * (one query); with `managerId`, only that manager's team.
 */
export async function listTeamMembers(db: DbOrTx, companyId: number, filter: { managerId?: number; userId?: number } = {}): Promise<TeamMember[]> {
  const rows = await db
    .select({
      id: teamMembers.id,
      userId: users.id,
      userEmail: users.email,
      companyId: companies.id,
      companyName: companies.name,
      managerId: managers.id,
      managerEmail: managers.email,
      performanceScore: teamMembers.performanceScore,
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
    .orderBy(sql`lower(${users.email})`, asc(teamMembers.id));
  return rows.map((row) => ({
    id: row.id,
    user: { id: row.userId, email: row.userEmail, company: { id: row.companyId, name: row.companyName } },
    manager: row.managerId === null || row.managerEmail === null ? null : { id: row.managerId, email: row.managerEmail },
    performance_score: row.performanceScore,
  }));
}

/** The statement behind listTeamWorkload, built once and prepared. */
const teamWorkloadStatement = builtOncePerDatabase((db) => {
  const companyId = sql.placeholder('companyId');
  // Per team member (lateral: on the assignee index, one member at a time), their ongoing work.
  const work = db
    .select({
      names: sql<string[] | null>`array_agg(${subtasks.name} order by ${subtasks.dueDate} asc nulls last, ${subtasks.id})`.as('names'),
      taskCount: count().as('task_count'),
    })
    .from(subtasks)
    .innerJoin(majorTasks, eq(majorTasks.id, subtasks.majorTaskId))
    .innerJoin(projects, eq(projects.id, majorTasks.projectId))
    .where(and(eq(subtasks.companyId, companyId), eq(subtasks.assignedToId, users.id), eq(subtasks.status, 'ongoing'), inArray(projects.status, ['ongoing', 'planned'])))
    .as('work');
  return db
    .select({ userId: users.id, email: users.email, names: work.names, taskCount: work.taskCount })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .crossJoinLateral(work)
    .where(and(eq(teamMembers.companyId, companyId), eq(teamMembers.managerId, sql.placeholder('managerId')), eq(users.companyId, companyId), isNull(users.deletedAt)))
    .orderBy(work.taskCount, sql`lower(${users.email})`, asc(users.id))
    .prepare('list_team_workload');
});

/**
 * The manager's active team members, least loaded first (then by email), each with the names of
 * their ongoing subtasks in ongoing or planned projects, soonest due first (work in a completed
 * project is no one's load). One statement that answers names, not whole subtasks.
 */
export async function listTeamWorkload(db: DbOrTx, companyId: number, managerId: number): Promise<TeamWorkloadItem[]> {
  const rows = await teamWorkloadStatement(db).execute({ companyId, managerId });
  return rows.map((row) => ({ user_id: row.userId, email: row.email, tasks: row.names ?? [], task_count: row.taskCount }));
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
