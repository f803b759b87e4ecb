import { and, asc, eq, gt, gte, isNull, lte, ne, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { companies } from '../../db/schema/companies';
import { projects } from '../../db/schema/projects';
import { majorTasks, subtasks } from '../../db/schema/tasks';
import { users } from '../../db/schema/users';
import { localDate } from '../../lib/time';
import type { AppraisalCounts, DateRange } from './reports.rules';

/** "Today" is the calendar date in the company's time zone, read by the database from the company row. */
const companyToday = localDate(companies.timezone);

function dueInRange(range: DateRange) {
  return and(range.start ? gte(subtasks.dueDate, range.start) : undefined, range.end ? lte(subtasks.dueDate, range.end) : undefined);
}

export type AppraisalScope =
  /** One active user of the company, whatever their role: the caller decides what that role allows. */
  | { userId: number }
  /** Every active manager and team member of the company. */
  | { everyone: true }
  /** The active team members whose manager is this user. */
  | { managerId: number };

export interface AppraisalRow extends AppraisalCounts {
  companyName: string;
  /** The company's local date and time when the report was read: `YYYY-MM-DD HH:MM`. */
  generatedAt: string;
  timezone: string;
}

/**
 * Each person in the scope with their subtasks due in the range counted by state, in one
 * statement however many people or subtasks: a subtask counts once, in the state it is in, and
 * also as overdue when it is not completed and was due before the company's today. With no
 * range, subtasks without a due date count too.
 */
export async function countAppraisals(db: DbOrTx, companyId: number, scope: AppraisalScope, range: DateRange): Promise<AppraisalRow[]> {
  return db
    .select({
      id: users.id,
      email: users.email,
      code: users.code,
      role: users.role,
      managerId: users.managerId,
      companyName: companies.name,
      timezone: companies.timezone,
      generatedAt: sql<string>`to_char(now() at time zone ${companies.timezone}, 'YYYY-MM-DD HH24:MI')`,
      total: sql<number>`count(${subtasks.id})::int`,
      completed: sql<number>`(count(*) filter (where ${subtasks.status} = 'completed'))::int`,
      ongoing: sql<number>`(count(*) filter (where ${subtasks.status} = 'ongoing'))::int`,
      pendingApproval: sql<number>`(count(*) filter (where ${subtasks.status} = 'pending_approval'))::int`,
      overdue: sql<number>`(count(*) filter (where ${subtasks.status} <> 'completed' and ${subtasks.dueDate} < ${companyToday}))::int`,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(subtasks, and(eq(subtasks.companyId, users.companyId), eq(subtasks.assignedToId, users.id), dueInRange(range)))
    .where(
      and(
        eq(users.companyId, companyId),
        isNull(users.deletedAt),
        'userId' in scope ? eq(users.id, scope.userId) : undefined,
        'everyone' in scope ? ne(users.role, 'admin') : undefined,
        'managerId' in scope ? and(eq(users.role, 'team_member'), eq(users.managerId, scope.managerId)) : undefined,
      ),
    )
    .groupBy(users.id, companies.id)
    .orderBy(sql`lower(${users.email})`, asc(users.id));
}

export interface ReportSubtaskRow {
  id: number;
  project: string;
  majorTask: string;
  subtask: string;
  dueDate: string | null;
  status: 'ongoing' | 'pending_approval' | 'completed';
  overdue: boolean;
}

/** The subtasks the counts above count for one person (and meet `condition`). */
function selectReportSubtasks(db: DbOrTx, companyId: number, userId: number, range: DateRange, condition?: SQL) {
  return db
    .select({
      id: subtasks.id,
      project: projects.name,
      majorTask: majorTasks.name,
      subtask: subtasks.name,
      dueDate: subtasks.dueDate,
      status: subtasks.status,
      overdue: sql<boolean>`(${subtasks.status} <> 'completed' and coalesce(${subtasks.dueDate} < ${companyToday}, false))`,
    })
    .from(subtasks)
    .innerJoin(majorTasks, eq(majorTasks.id, subtasks.majorTaskId))
    .innerJoin(projects, eq(projects.id, majorTasks.projectId))
    .innerJoin(companies, eq(companies.id, subtasks.companyId))
    .where(and(eq(subtasks.companyId, companyId), eq(subtasks.assignedToId, userId), dueInRange(range), condition))
    .$dynamic();
}

/** The subtasks the counts above count for one person, soonest due first (undated last), at most `limit` of them. */
export async function listReportSubtasks(db: DbOrTx, companyId: number, userId: number, range: DateRange, limit: number): Promise<ReportSubtaskRow[]> {
  return selectReportSubtasks(db, companyId, userId, range)
    .orderBy(sql`${subtasks.dueDate} asc nulls last`, sql`lower(${projects.name})`, sql`lower(${majorTasks.name})`, asc(subtasks.id))
    .limit(limit);
}

/** For an export: up to `size` of those subtasks with an id above `afterId`, in id order. */
export async function listReportSubtaskBatch(db: DbOrTx, companyId: number, userId: number, range: DateRange, afterId: number | undefined, size: number): Promise<ReportSubtaskRow[]> {
  return selectReportSubtasks(db, companyId, userId, range, afterId === undefined ? undefined : gt(subtasks.id, afterId))
    .orderBy(asc(subtasks.id))
    .limit(size);
}
