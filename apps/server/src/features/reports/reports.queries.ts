import { and, asc, eq, gte, isNull, lte, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { companies } from '../../db/schema/companies';
import { projects } from '../../db/schema/projects';
import { majorTasks, subtasks } from '../../db/schema/tasks';
import { users } from '../../db/schema/users';
import { matchingRowCount, withPage, type Page, type PageRequest } from '../../lib/lists';
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
 * Each person in the scope with their subtasks due in the range counted by state (a page of
 * them when asked, with how many there are), in one statement however many people or subtasks: a subtask counts once, in the state it is in, and
 * also as overdue when it is not completed and was due before the company's today. With no
 * range, subtasks without a due date count too.
 */
export async function countAppraisals(db: DbOrTx, companyId: number, scope: AppraisalScope, range: DateRange, page: PageRequest = {}): Promise<Page<AppraisalRow>> {
  const query = db
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
      people: matchingRowCount(),
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
    .orderBy(sql`lower(${users.email})`, asc(users.id))
    .$dynamic();
  const rows = await withPage(query, page);
  // `total` is each person's task count here: the number of people matched comes as `people`.
  const people = rows[0]?.people ?? (page.offset ? (await countAppraisals(db, companyId, scope, range, { limit: 1 })).total : 0);
  return { items: rows, total: people };
}

export interface ReportSubtaskRow {
  project: string;
  majorTask: string;
  subtask: string;
  dueDate: string | null;
  status: 'ongoing' | 'pending_approval' | 'completed';
  overdue: boolean;
}

/** The subtasks the counts above count for one person, soonest due first (undated last), at most `limit` of them. */
export async function listReportSubtasks(db: DbOrTx, companyId: number, userId: number, range: DateRange, limit: number): Promise<ReportSubtaskRow[]> {
  return db
    .select({
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
    .where(and(eq(subtasks.companyId, companyId), eq(subtasks.assignedToId, userId), dueInRange(range)))
    .orderBy(sql`${subtasks.dueDate} asc nulls last`, sql`lower(${projects.name})`, sql`lower(${majorTasks.name})`, asc(subtasks.id))
    .limit(limit);
}
