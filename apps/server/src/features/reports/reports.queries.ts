import { and, asc, eq, gt, gte, inArray, isNull, lte, ne, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type DbOrTx, builtOncePerShape } from '../../platform';
import { subtaskActivity } from '../../schema/activity';
import { companies } from '../../schema/companies';
import { projects } from '../../schema/projects';
import { majorTasks, subtasks } from '../../schema/tasks';
import { users } from '../../schema/users';
import { byShownName } from '../users/users.queries';
import { matchingRowCount, withPage, type Page, type PageRequest } from '../../lib/lists';
import { localDate, personZone } from '../../lib/time';
import type { AppraisalCounts, DateRange, DecisionCounts } from './reports.rules';

/** "Today" is the calendar date in the company's time zone, read by the database from the company row. */
const companyToday = localDate(companies.timezone);
/** The company's zone as a nested expression: drizzle writes it with its table's name inside a subquery of subtasks, where a bare "timezone" would be ambiguous. */
const companyZone = sql<string>`${companies.timezone}`;

/** A range's ends as values, or as placeholders of a statement built once. */
type RangeBounds = { start?: string | Placeholder; end?: string | Placeholder };

function dueInRange(range: RangeBounds) {
  return and(range.start ? gte(subtasks.dueDate, range.start) : undefined, range.end ? lte(subtasks.dueDate, range.end) : undefined);
}

export type AppraisalScope =
  /** One active user of the company, whatever their role: the caller decides what that role allows. */
  | { userId: number }
  /** Every active manager and team member of the company. */
  | { everyone: true }
  /** The active team members whose manager is this user. */
  | { managerId: number };

export interface AppraisalRow extends AppraisalCounts, DecisionCounts {
  companyName: string;
  /** When the report was read, in `timezone`: `YYYY-MM-DD HH:MM`. */
  generatedAt: string;
  /** The reader's time zone when one was named (their own, else the company's), else the company's. */
  timezone: string;
}

/** The appraisal statements built so far, by shape (which scope, which ends of the range, whose zone, which page parts): a few dozen at most. */
const appraisalStatement = builtOncePerShape('appraisals');

/**
 * Each person in the scope with their subtasks due in the range counted by state (a page of
 * them when asked, with how many there are), in one statement however many people or subtasks: a subtask counts once, in the state it is in, and
 * also as overdue when it is not completed and was due before the company's today. With no
 * range, subtasks without a due date count too. Built once per shape and prepared (the team
 * report is read on every manager dashboard): building it with drizzle cost more server CPU than
 * reading its answer.
 */
export async function countAppraisals(
  db: DbOrTx,
  companyId: number,
  scope: AppraisalScope,
  range: DateRange,
  page: PageRequest = {},
  { readerId }: { readerId?: number } = {},
): Promise<Page<AppraisalRow>> {
  const scopeKind = 'userId' in scope ? 'user' : 'everyone' in scope ? 'everyone' : 'team';
  const shape = JSON.stringify([scopeKind, Boolean(range.start), Boolean(range.end), readerId !== undefined, page.limit !== undefined, Boolean(page.offset)]);
  const statement = appraisalStatement(db, shape, () => buildAppraisals(db, scopeKind, range, page, readerId !== undefined));
  const values = {
    companyId,
    personId: 'userId' in scope ? scope.userId : 'managerId' in scope ? scope.managerId : undefined,
    start: range.start,
    end: range.end,
    readerId,
    limit: page.limit,
    offset: page.offset,
  };
  const rows = (await statement.execute(values)).map((row) => ({ ...row, medianHours: row.medianHours === null ? null : Number(row.medianHours) }));
  // `total` is each person's task count here: the number of people matched comes as `people`.
  const people = rows[0]?.people ?? (page.offset ? (await countAppraisals(db, companyId, scope, range, { limit: 1 })).total : 0);
  return { items: rows, total: people };
}

/** The statement behind countAppraisals for one shape, its values as placeholders (`personId` is the scope's user or manager). */
function buildAppraisals(db: DbOrTx, scopeKind: 'user' | 'everyone' | 'team', range: DateRange, page: PageRequest, byReader: boolean) {
  const rangeParams: RangeBounds = { start: range.start ? sql.placeholder('start') : undefined, end: range.end ? sql.placeholder('end') : undefined };
  const decisions = decisionsOfPerson(db, rangeParams);
  const counts = countsOfPerson(db, rangeParams);
  // "Generated" is a moment for the person reading the report: in their zone. The counts keep the company's day.
  const readerZone = byReader ? personZone(sql.placeholder('readerId')) : sql<string>`${companies.timezone}`;
  const personId = sql.placeholder('personId');
  const query = db
    .select({
      id: users.id,
      email: users.email,
      fullName: users.fullName,
      code: users.code,
      role: users.role,
      managerId: users.managerId,
      companyName: companies.name,
      timezone: readerZone,
      generatedAt: sql<string>`to_char(now() at time zone ${readerZone}, 'YYYY-MM-DD HH24:MI')`,
      total: counts.total,
      completed: counts.completed,
      ongoing: counts.ongoing,
      pendingApproval: counts.pendingApproval,
      closedUnfinished: counts.closedUnfinished,
      overdue: counts.overdue,
      completedWithDueDate: counts.completedWithDueDate,
      completedOnTime: counts.completedOnTime,
      declines: decisions.declines,
      approved: decisions.approved,
      firstPass: decisions.firstPass,
      medianHours: decisions.medianHours,
      people: matchingRowCount(),
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .leftJoinLateral(decisions, sql`true`)
    .leftJoinLateral(counts, sql`true`)
    .where(
      and(
        eq(users.companyId, sql.placeholder('companyId')),
        isNull(users.deletedAt),
        scopeKind === 'user' ? eq(users.id, personId) : undefined,
        scopeKind === 'everyone' ? ne(users.role, 'admin') : undefined,
        scopeKind === 'team' ? and(eq(users.role, 'team_member'), eq(users.managerId, personId)) : undefined,
      ),
    )
    .orderBy(byShownName(users), asc(users.id))
    .$dynamic();
  return withPage(query, { limit: page.limit === undefined ? undefined : sql.placeholder('limit'), offset: page.offset ? sql.placeholder('offset') : undefined });
}

/**
 * The subtasks the person of the outer row (`users`) is assigned, due in the range, counted by
 * state: a lateral aggregate per person, one row each (zeros with none). Counted per person, not
 * by joining every subtask to the people and grouping after: on the large data the team of 20's
 * 1,000 subtasks made PostgreSQL hash-group wide rows, and the statement took it 40 % longer.
 */
const stillOpen = sql`${subtasks.closedUnfinishedAt} is null`;

function countsOfPerson(db: DbOrTx, range: RangeBounds) {
  return db
    .select({
      total: sql<number>`count(*)::int`.as('task_total'),
      completed: sql<number>`(count(*) filter (where ${subtasks.status} = 'completed'))::int`.as('task_completed'),
      // Work its project's completion closed unfinished counts apart: not ongoing, not pending, not overdue.
      ongoing: sql<number>`(count(*) filter (where ${subtasks.status} = 'ongoing' and ${stillOpen}))::int`.as('task_ongoing'),
      pendingApproval: sql<number>`(count(*) filter (where ${subtasks.status} = 'pending_approval' and ${stillOpen}))::int`.as('task_pending_approval'),
      closedUnfinished: sql<number>`(count(*) filter (where ${subtasks.closedUnfinishedAt} is not null))::int`.as('task_closed_unfinished'),
      overdue: sql<number>`(count(*) filter (where ${subtasks.status} <> 'completed' and ${stillOpen} and ${subtasks.dueDate} < ${companyToday}))::int`.as('task_overdue'),
      completedWithDueDate: sql<number>`(count(*) filter (where ${subtasks.status} = 'completed' and ${subtasks.dueDate} is not null and ${subtasks.completedAt} is not null))::int`.as('task_completed_with_due_date'),
      // Completed on or before its due date, as the company's calendar reads the day it was completed.
      completedOnTime: sql<number>`(count(*) filter (where ${subtasks.status} = 'completed' and ${subtasks.dueDate} is not null and (${subtasks.completedAt} at time zone ${companyZone})::date <= ${subtasks.dueDate}))::int`.as('task_completed_on_time'),
    })
    .from(subtasks)
    .where(and(eq(subtasks.companyId, users.companyId), eq(subtasks.assignedToId, users.id), dueInRange(range)))
    .as('counts');
}

/**
 * What the approvers decided on the subtasks the person of the outer row (`users`) is assigned,
 * due in the range, from the subtasks' history: how often they were declined, how many were
 * approved and how many of those without any decline, and the median hours from a submission to
 * the decision on it. A lateral subquery, so the report stays one statement.
 */
function decisionsOfPerson(db: DbOrTx, range: RangeBounds) {
  const submissions = alias(subtaskActivity, 'submissions');
  const declines = alias(subtaskActivity, 'declines');
  const decided = db
    .select({
      subtaskId: subtaskActivity.subtaskId,
      approved: sql<boolean>`(${subtaskActivity.toStatus} = 'completed')`.as('approved'),
      declinedBefore: sql<boolean>`exists (select 1 from ${subtaskActivity} as ${sql.identifier('declines')} where ${declines.subtaskId} = ${subtaskActivity.subtaskId} and ${declines.type} = 'status_changed' and ${declines.fromStatus} = 'pending_approval' and ${declines.toStatus} = 'ongoing' and ${declines.id} < ${subtaskActivity.id})`.as('declined_before'),
      waitedHours: sql<number>`extract(epoch from ${subtaskActivity.createdAt} - (select max(${submissions.createdAt}) from ${subtaskActivity} as ${sql.identifier('submissions')} where ${submissions.subtaskId} = ${subtaskActivity.subtaskId} and ${submissions.type} = 'status_changed' and ${submissions.toStatus} = 'pending_approval' and ${submissions.id} < ${subtaskActivity.id})) / 3600`.as('waited_hours'),
    })
    .from(subtaskActivity)
    .innerJoin(subtasks, eq(subtasks.id, subtaskActivity.subtaskId))
    .where(
      and(
        eq(subtaskActivity.companyId, users.companyId),
        eq(subtasks.companyId, users.companyId),
        eq(subtasks.assignedToId, users.id),
        dueInRange(range),
        eq(subtaskActivity.type, 'status_changed'),
        eq(subtaskActivity.fromStatus, 'pending_approval'),
        inArray(subtaskActivity.toStatus, ['completed', 'ongoing']),
      ),
    )
    .as('decided');
  return db
    .select({
      declines: sql<number>`(count(*) filter (where not ${decided.approved}))::int`.as('declines'),
      approved: sql<number>`(count(distinct ${decided.subtaskId}) filter (where ${decided.approved}))::int`.as('approved'),
      firstPass: sql<number>`(count(distinct ${decided.subtaskId}) filter (where ${decided.approved} and not ${decided.declinedBefore}))::int`.as('first_pass'),
      medianHours: sql<number | null>`percentile_cont(0.5) within group (order by ${decided.waitedHours})`.as('median_hours'),
    })
    .from(decided)
    .as('decisions');
}

export interface ReportSubtaskRow {
  id: number;
  project: string;
  majorTask: string;
  subtask: string;
  dueDate: string | null;
  status: 'ongoing' | 'pending_approval' | 'completed';
  /** Its project's completion closed it unfinished: shown apart, never overdue. */
  closedUnfinished: boolean;
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
      closedUnfinished: sql<boolean>`(${subtasks.closedUnfinishedAt} is not null)`,
      overdue: sql<boolean>`(${subtasks.status} <> 'completed' and ${stillOpen} and coalesce(${subtasks.dueDate} < ${companyToday}, false))`,
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
