import { and, asc, count, eq, gt, inArray, isNotNull, isNull, max, ne, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias, type PgSelect } from 'drizzle-orm/pg-core';
import type { MajorTask, MajorTaskSummary, Priority, ProjectStatus, Subtask, SubtaskStatus } from '@siteboard/shared';
import { REASSIGNABLE_STATUS } from '@siteboard/shared';
import { type DbOrTx, builtOncePerDatabase, builtOncePerShape, type IdOrPlaceholder } from '../../platform';
import { subtaskActivity } from '../../schema/activity';
import { projects, projectStatusEnum } from '../../schema/projects';
import { majorTasks, subtasks, subtaskStatusEnum } from '../../schema/tasks';
import { teamMembers, users } from '../../schema/users';
import { isoTimestamp, jsonArray, jsonObject, personJson } from '../../lib/json-sql';
import { localDate, personZone } from '../../lib/time';
import { matchingRowCount, toPage, withPage, type Page, type PageRequest } from '../../lib/lists';

const assignees = alias(users, 'assignees');
const assigners = alias(users, 'assigners');
const creators = alias(users, 'creators');

const projectRefJson = jsonObject({ id: projects.id, name: projects.name, status: projects.status, manager_id: projects.managerId });

/** A subtask's `major_task` reference, from the major task and project rows in the statement's joins. */
const majorTaskRefJson = jsonObject({ id: majorTasks.id, name: majorTasks.name, project: projectRefJson });

/**
 * Why the subtask is ongoing again, while it is: the reason given with its latest status change
 * when that was a decline (one index lookup on its history, only for ongoing work: a CASE runs
 * its subquery only in its own branch).
 */
const declineReason = sql<string | null>`case when ${subtasks.status} = 'ongoing' then (select case when ${subtaskActivity.fromStatus} = 'pending_approval' and ${subtaskActivity.toStatus} = 'ongoing' then ${subtaskActivity.text} end from ${subtaskActivity} where ${subtaskActivity.subtaskId} = ${subtasks.id} and ${subtaskActivity.type} = 'status_changed' order by ${subtaskActivity.id} desc limit 1) end`;

/**
 * What its assignee said when sending it, while it waits for approval: the note given with its
 * latest status change when that was the sending (one index lookup, only for work that waits).
 */
const submissionNote = sql<string | null>`case when ${subtasks.status} = 'pending_approval' then (select case when ${subtaskActivity.toStatus} = 'pending_approval' then ${subtaskActivity.text} end from ${subtaskActivity} where ${subtaskActivity.subtaskId} = ${subtasks.id} and ${subtaskActivity.type} = 'status_changed' order by ${subtaskActivity.id} desc limit 1) end`;

/**
 * A subtask in the API's shape, from its row joined to its people (assignees, assigners), with
 * its `major_task` reference as given.
 */
const subtaskJsonWith = (majorTaskRef: SQL) =>
  jsonObject<Subtask>({
    id: subtasks.id,
    name: subtasks.name,
    description: subtasks.description,
    status: subtasks.status,
    priority: subtasks.priority,
    due_date: subtasks.dueDate,
    assigned_to: personJson(assignees.id, assignees.email, assignees.fullName),
    assigned_to_id: subtasks.assignedToId,
    assignee_left: sql<boolean>`${assignees.deletedAt} is not null`,
    assigned_by: personJson(assigners.id, assigners.email, assigners.fullName),
    major_task_id: subtasks.majorTaskId,
    major_task: majorTaskRef,
    created_at: isoTimestamp(subtasks.createdAt),
    submitted_at: isoTimestamp(subtasks.submittedAt),
    completed_at: isoTimestamp(subtasks.completedAt),
    closed_unfinished_at: isoTimestamp(subtasks.closedUnfinishedAt),
    decline_reason: declineReason,
    submission_note: submissionNote,
    pin: sql`case when ${subtasks.pinSheetId} is null then null else json_build_object('sheet_id', ${subtasks.pinSheetId}, 'x', ${subtasks.pinX}, 'y', ${subtasks.pinY}) end`,
  });

/** A subtask in the API's shape, its major task and project joined in the same statement. */
const subtaskJson = subtaskJsonWith(majorTaskRefJson);

/** Subtasks in which a user plays one of these parts ('assigner_of_others': assigned by them to someone else). */
export type Involvement = 'project_manager' | 'assigner' | 'assigner_of_others' | 'assignee';

export interface SubtaskFilter {
  id?: number;
  projectId?: number;
  majorTaskId?: number;
  /** A case-insensitive substring of the name: its ILIKE pattern (containingPattern). */
  namePattern?: string;
  /** Pinned on a drawing's sheet, or on none. */
  pinned?: true;
  unpinned?: true;
  projectStatuses?: ProjectStatus[];
  assignedToId?: number;
  /** Assigned to a team member of this manager. */
  assignedToTeamOf?: number;
  status?: SubtaskStatus;
  notCompleted?: boolean;
  /** Due today where this viewer is (their own time zone, else the company's): their id. */
  dueTodayFor?: number;
  involving?: { userId: number; as: Involvement[] };
  /** An export's part of the matches: those with a due date, or those without. */
  dated?: true;
  undated?: true;
  /**
   * Where an export's next batch resumes in its part's order: after the subtask due on
   * `afterDueDate` with the id `afterId` (due date, then id), or with `afterId` alone (by id).
   */
  afterDueDate?: string;
  afterId?: number;
}

/*
 * Every subtask list statement is built once for its shape (which filters, which parts, whether
 * paged) and prepared; the values go into placeholders named after the filter's fields
 * (`companyId`, `id`, `status`, ..., `userId` for the involvement, `limit`, `offset`). Building a
 * page's SQL text (a union of subqueries) took drizzle longer than PostgreSQL took to run it.
 */
const value = (name: Exclude<keyof SubtaskFilter, 'involving'> | 'companyId' | 'userId') => sql.placeholder(name);

/**
 * Where a statement's conditions find the subtask's project: in the statement's own joins (a whole
 * list reads every match joined to its major task and project anyway), or through a subquery on
 * the major task so that a page can be picked from the subtasks alone before anything is joined
 * (joining the project and both people to every match to keep a page of them cost PostgreSQL
 * more than picking the page first, planning included; decision record 006).
 */
type ProjectScope = 'joined' | 'subquery';

/** A condition on the subtask's major task or project (of the company), in the given scope. */
function projectCondition(db: DbOrTx, condition: SQL, scope: ProjectScope): SQL {
  if (scope === 'joined') return condition;
  const majorTaskIds = db
    .select({ id: majorTasks.id })
    .from(majorTasks)
    .innerJoin(projects, eq(projects.id, majorTasks.projectId))
    .where(and(eq(majorTasks.companyId, value('companyId')), condition));
  return inArray(subtasks.majorTaskId, majorTaskIds);
}

/** The ids of the subtasks that meet the condition, each joined to its major task and project. */
function joinedSubtaskIdsWhere(db: DbOrTx, condition: SQL | undefined) {
  return db
    .select({ id: subtasks.id })
    .from(subtasks)
    .innerJoin(majorTasks, eq(majorTasks.id, subtasks.majorTaskId))
    .innerJoin(projects, eq(projects.id, majorTasks.projectId))
    .where(condition);
}

const openStatuses = subtaskStatusEnum.enumValues.filter((status) => status !== 'completed');

function subtaskConditions(db: DbOrTx, filter: Omit<SubtaskFilter, 'involving'>, scope: ProjectScope): SQL[] {
  const conditions: SQL[] = [eq(subtasks.companyId, value('companyId'))];
  if (filter.id !== undefined) conditions.push(eq(subtasks.id, value('id')));
  // Work its project's completion closed unfinished is on no list (decision record 061); one subtask is still found by its id.
  else conditions.push(isNull(subtasks.closedUnfinishedAt));
  if (filter.projectId !== undefined) conditions.push(projectCondition(db, eq(projects.id, value('projectId')), scope));
  if (filter.majorTaskId !== undefined) conditions.push(eq(subtasks.majorTaskId, value('majorTaskId')));
  if (filter.namePattern !== undefined) conditions.push(sql`${subtasks.name} ilike ${value('namePattern')}`);
  if (filter.pinned) conditions.push(isNotNull(subtasks.pinSheetId));
  if (filter.unpinned) conditions.push(isNull(subtasks.pinSheetId));
  if (filter.dated) conditions.push(isNotNull(subtasks.dueDate));
  if (filter.undated) conditions.push(isNull(subtasks.dueDate));
  if (filter.afterDueDate !== undefined) {
    // `>=` first: a range on the (company, due date) index, where an OR alone made every batch read every match.
    const dueDate = sql`${value('afterDueDate')}::date`;
    conditions.push(sql`${subtasks.dueDate} >= ${dueDate} and (${subtasks.dueDate} > ${dueDate} or ${subtasks.id} > ${value('afterId')})`);
  } else if (filter.afterId !== undefined) conditions.push(gt(subtasks.id, value('afterId')));
  if (filter.projectStatuses) {
    // Sent as text[]: PGlite cannot write a list parameter of an enum type.
    const statuses = sql`${value('projectStatuses')}::text[]::${sql.identifier(projectStatusEnum.enumName)}[]`;
    conditions.push(projectCondition(db, sql`${projects.status} = any(${statuses})`, scope));
  }
  if (filter.assignedToId !== undefined) conditions.push(eq(subtasks.assignedToId, value('assignedToId')));
  if (filter.assignedToTeamOf !== undefined) {
    const team = db
      .select({ userId: teamMembers.userId })
      .from(teamMembers)
      .where(and(eq(teamMembers.companyId, value('companyId')), eq(teamMembers.managerId, value('assignedToTeamOf'))));
    conditions.push(inArray(subtasks.assignedToId, team));
  }
  if (filter.status !== undefined) conditions.push(eq(subtasks.status, value('status')));
  // As the states it may be in rather than `<> 'completed'`: those are index conditions on (…, status).
  if (filter.notCompleted) conditions.push(inArray(subtasks.status, openStatuses));
  if (filter.dueTodayFor !== undefined) conditions.push(eq(subtasks.dueDate, localDate(personZone(value('dueTodayFor')))));
  return conditions;
}

function involvementCondition(db: DbOrTx, part: Involvement, scope: ProjectScope): SQL {
  switch (part) {
    case 'project_manager':
      return projectCondition(db, and(eq(projects.companyId, value('companyId')), eq(projects.managerId, value('userId')))!, scope);
    case 'assigner':
      return eq(subtasks.assignedById, value('userId'));
    case 'assigner_of_others':
      return and(eq(subtasks.assignedById, value('userId')), ne(subtasks.assignedToId, value('userId')))!;
    case 'assignee':
      return eq(subtasks.assignedToId, value('userId'));
  }
}

/** The conditions of a whole list ('joined'): the parts the user plays as one `id in (union)`. */
function joinedFilterConditions(db: DbOrTx, filter: SubtaskFilter): SQL[] {
  const { involving, ...rest } = filter;
  const conditions = subtaskConditions(db, rest, 'joined');
  if (involving) {
    // The ids of each part the user plays, found on that part's own index, then one pass over
    // the union: a single OR across the parts made PostgreSQL read every matching subtask of the
    // company and filter afterwards.
    const branches = involving.as.map((part) => joinedSubtaskIdsWhere(db, and(...conditions, involvementCondition(db, part, 'joined'))));
    conditions.push(sql`${subtasks.id} in (${sql.join(branches, sql` union `)})`);
  }
  return conditions;
}

/**
 * The matches of a page ('subquery') as (id, due date) rows from the subtasks alone: one select,
 * or one per part the user plays (each on that part's own index) united, so that no match is
 * read twice to be checked again.
 */
function matchingSubtasks(db: DbOrTx, filter: SubtaskFilter) {
  const { involving, ...rest } = filter;
  const conditions = subtaskConditions(db, rest, 'subquery');
  const matching = (condition?: SQL) =>
    db
      .select({ id: subtasks.id, dueDate: subtasks.dueDate })
      .from(subtasks)
      .where(and(...conditions, condition))
      .$dynamic();
  if (!involving) return matching();
  const [first, ...others] = involving.as.map((part) => matching(involvementCondition(db, part, 'subquery')));
  return others.reduce((united, next) => united.union(next), first!);
}

/** The order every subtask list has: soonest due first (undated last), then by id. */
const soonestDueFirst = (dueDate: SQLWrapper, id: SQLWrapper) => [sql`${dueDate} asc nulls last`, asc(id)];

/** Every match in one pass ('joined' conditions), each joined to its people, major task and project. */
function readAllSubtasks(db: DbOrTx, filter: SubtaskFilter) {
  return db
    .select({ subtask: subtaskJson })
    .from(subtasks)
    .innerJoin(majorTasks, eq(majorTasks.id, subtasks.majorTaskId))
    .innerJoin(projects, eq(projects.id, majorTasks.projectId))
    .leftJoin(assignees, eq(assignees.id, subtasks.assignedToId))
    .leftJoin(assigners, eq(assigners.id, subtasks.assignedById))
    .where(and(...joinedFilterConditions(db, filter)))
    .orderBy(...soonestDueFirst(subtasks.dueDate, subtasks.id));
}

/** A page of the matches with their total, picked from the subtasks alone; only its rows are joined. */
function readSubtaskPage(db: DbOrTx, filter: SubtaskFilter, page: PageRequest) {
  const matches = matchingSubtasks(db, filter).as('matches');
  const pageIds = withPage(
    db
      .select({ id: matches.id, dueDate: matches.dueDate, total: matchingRowCount().as('total') })
      .from(matches)
      .orderBy(...soonestDueFirst(matches.dueDate, matches.id))
      .$dynamic(),
    { limit: page.limit === undefined ? undefined : sql.placeholder('limit'), offset: page.offset ? sql.placeholder('offset') : undefined },
  ).as('page');
  return joinedToTheirSubtasks(db.select({ subtask: subtaskJson, total: pageIds.total }).from(pageIds).$dynamic(), pageIds.id).orderBy(...soonestDueFirst(pageIds.dueDate, pageIds.id));
}

/**
 * Rows of chosen subtask ids (`id`) joined to their subtasks, with the major task, project and
 * people the API's subtask names. The query selects its columns by name, so the joins add no
 * column to its rows (drizzle's join type does not know that).
 */
function joinedToTheirSubtasks<T extends PgSelect>(query: T, id: SQLWrapper): T {
  return query
    .innerJoin(subtasks, eq(subtasks.id, id))
    .innerJoin(majorTasks, eq(majorTasks.id, subtasks.majorTaskId))
    .innerJoin(projects, eq(projects.id, majorTasks.projectId))
    .leftJoin(assignees, eq(assignees.id, subtasks.assignedToId))
    .leftJoin(assigners, eq(assigners.id, subtasks.assignedById)) as unknown as T;
}

function countMatches(db: DbOrTx, filter: SubtaskFilter) {
  return db.select({ count: count() }).from(matchingSubtasks(db, filter).as('matches'));
}

/** The subtask list statements built so far, by shape: a few dozen at most, as shapes come from the code, never from values. */
const subtaskStatement = builtOncePerShape('subtasks');

/** The statement `build` makes for this shape of filter (and page), built and prepared on first use. */
async function runForShape<Row>(db: DbOrTx, kind: string, filter: SubtaskFilter, page: PageRequest, build: () => { prepare(name: string): { execute(values: Record<string, unknown>): Promise<Row[]> } }, values: Record<string, unknown>): Promise<Row[]> {
  const present = Object.entries(filter).flatMap(([field, fieldValue]) => (fieldValue === undefined || fieldValue === false ? [] : [field]));
  const shape = JSON.stringify([kind, present.sort(), filter.involving?.as, page.limit !== undefined, Boolean(page.offset)]);
  return subtaskStatement<Row>(db, shape, build).execute(values);
}

/** The company's subtasks that match, soonest due first: a page of them and their total in one statement. */
export async function listSubtaskPage(db: DbOrTx, companyId: number, filter: SubtaskFilter = {}, page: PageRequest = {}): Promise<Page<Subtask>> {
  const { involving, ...fields } = filter;
  const values = { ...fields, companyId, userId: involving?.userId, limit: page.limit, offset: page.offset };
  if (page.limit === undefined && !page.offset) {
    const rows = await runForShape(db, 'all', filter, page, () => readAllSubtasks(db, filter), values);
    return { items: rows.map((row) => row.subtask), total: rows.length };
  }
  const rows = await runForShape(db, 'page', filter, page, () => readSubtaskPage(db, filter, page), values);
  return toPage(rows, page, (row) => row.subtask, async () => {
    const [row] = await runForShape(db, 'count', filter, {}, () => countMatches(db, filter), values);
    return row!.count;
  });
}

const firstSubtaskPagesStatement = builtOncePerDatabase((db) => {
  // Each major task's open subtasks ranked in the lists' order and counted; only the first `limit` of each are joined.
  const ranked = db
    .select({
      id: subtasks.id,
      dueDate: subtasks.dueDate,
      majorTaskId: subtasks.majorTaskId,
      rank: sql<number>`row_number() over (partition by ${subtasks.majorTaskId} order by ${subtasks.dueDate} asc nulls last, ${subtasks.id})`.as('rank'),
      total: sql<number>`count(*) over (partition by ${subtasks.majorTaskId})`.mapWith(Number).as('total'),
    })
    .from(subtasks)
    .where(and(eq(subtasks.companyId, sql.placeholder('companyId')), isNull(subtasks.closedUnfinishedAt), sql`${subtasks.majorTaskId} = any(${sql.placeholder('majorTaskIds')}::integer[])`))
    .as('ranked');
  return joinedToTheirSubtasks(db.select({ majorTaskId: ranked.majorTaskId, total: ranked.total, subtask: subtaskJson }).from(ranked).$dynamic(), ranked.id)
    .where(sql`${ranked.rank} <= ${sql.placeholder('limit')}`)
    .orderBy(...soonestDueFirst(ranked.dueDate, ranked.id))
    .prepare('first_subtask_pages');
});

/**
 * The first `limit` subtasks of each of the company's major tasks (soonest due first, as every
 * subtask list) with how many each has: one statement however many major tasks and subtasks.
 */
export async function listFirstSubtaskPages(db: DbOrTx, companyId: number, majorTaskIds: number[], limit: number): Promise<Map<number, Page<Subtask>>> {
  const pages = new Map(majorTaskIds.map((id): [number, Page<Subtask>] => [id, { items: [], total: 0 }]));
  for (const row of await firstSubtaskPagesStatement(db).execute({ companyId, majorTaskIds, limit })) {
    const page = pages.get(row.majorTaskId)!;
    page.items.push(row.subtask);
    page.total = row.total;
  }
  return pages;
}

/** A subtask as an export lists it: flat, its project, major task and people by name. */
export interface SubtaskExportRow {
  id: number;
  project: string;
  majorTask: string;
  name: string;
  description: string;
  assignee: string | null;
  assigneeName: string | null;
  assignedBy: string | null;
  assignedByName: string | null;
  dueDate: string | null;
  status: SubtaskStatus;
  priority: Priority;
  createdAt: string;
  submittedAt: string | null;
  completedAt: string | null;
}

/** Up to `batchSize` matches ('joined' conditions) in the lists' order, each joined to its people, major task and project. */
function readSubtaskExportRows(db: DbOrTx, filter: SubtaskFilter) {
  return db
    .select({
      id: subtasks.id,
      project: projects.name,
      majorTask: majorTasks.name,
      name: subtasks.name,
      description: subtasks.description,
      assignee: assignees.email,
      assigneeName: assignees.fullName,
      assignedBy: assigners.email,
      assignedByName: assigners.fullName,
      dueDate: subtasks.dueDate,
      status: subtasks.status,
      priority: subtasks.priority,
      createdAt: sql<string>`${isoTimestamp(subtasks.createdAt)}`,
      submittedAt: isoTimestamp(subtasks.submittedAt),
      completedAt: isoTimestamp(subtasks.completedAt),
    })
    .from(subtasks)
    .innerJoin(majorTasks, eq(majorTasks.id, subtasks.majorTaskId))
    .innerJoin(projects, eq(projects.id, majorTasks.projectId))
    .leftJoin(assignees, eq(assignees.id, subtasks.assignedToId))
    .leftJoin(assigners, eq(assigners.id, subtasks.assignedById))
    .where(and(...joinedFilterConditions(db, filter)))
    .orderBy(...soonestDueFirst(subtasks.dueDate, subtasks.id))
    .limit(sql.placeholder('batchSize'));
}

/**
 * For an export: up to `batchSize` of the company's matching subtasks after the `last` one, in the
 * lists' order (soonest due first, undated last, then by id; decision record 064). Keyset batches
 * in two parts, each a range on the (company, due date) index: the dated ones after the last
 * (due date, id), then, where they run out, the undated ones by id. Built once per shape and
 * prepared, like the lists.
 */
export async function listSubtaskBatch(db: DbOrTx, companyId: number, filter: SubtaskFilter, last: { id: number; dueDate: string | null } | undefined, batchSize: number): Promise<SubtaskExportRow[]> {
  const read = (part: SubtaskFilter, size: number) => {
    const batchFilter = { ...filter, ...part };
    const { involving, ...fields } = batchFilter;
    const values = { ...fields, companyId, userId: involving?.userId, batchSize: size };
    return runForShape(db, 'export', batchFilter, {}, () => readSubtaskExportRows(db, batchFilter), values);
  };
  if (last && last.dueDate === null) return read({ undated: true, afterId: last.id }, batchSize);
  const dated = await read(last ? { dated: true, afterDueDate: last.dueDate!, afterId: last.id } : { dated: true }, batchSize);
  return dated.length === batchSize ? dated : [...dated, ...(await read({ undated: true }, batchSize - dated.length))];
}

/** How many of the company's subtasks match: the total the list would report, without its rows. */
export async function countSubtasks(db: DbOrTx, companyId: number, filter: SubtaskFilter): Promise<number> {
  const { involving, ...fields } = filter;
  const [row] = await runForShape(db, 'count', filter, {}, () => countMatches(db, filter), { ...fields, companyId, userId: involving?.userId });
  return row!.count;
}

export async function listSubtasks(db: DbOrTx, companyId: number, filter: SubtaskFilter = {}): Promise<Subtask[]> {
  return (await listSubtaskPage(db, companyId, filter)).items;
}

export async function findSubtask(db: DbOrTx, companyId: number, subtaskId: number): Promise<Subtask | undefined> {
  const [subtask] = await listSubtasks(db, companyId, { id: subtaskId });
  return subtask;
}

/** A major task's own fields in the API's shape, from its row joined to its project and creator. */
const majorTaskOwnFields = {
  id: majorTasks.id,
  name: majorTasks.name,
  description: majorTasks.description,
  due_date: majorTasks.dueDate,
  created_by: personJson(creators.id, creators.email, creators.fullName),
  created_at: isoTimestamp(majorTasks.createdAt),
  project: projectRefJson,
  project_id: majorTasks.projectId,
};

/**
 * A major task in the API's shape with its subtasks (soonest due first), from its row joined to
 * its creator and its project (in the statement's joins or around it): one statement however
 * many subtasks.
 */
function majorTaskJson(db: DbOrTx, companyId: IdOrPlaceholder, subtaskLimit?: number) {
  const ofMajorTask = and(eq(subtasks.companyId, companyId), eq(subtasks.majorTaskId, majorTasks.id));
  const firstIds = subtaskLimit === undefined ? undefined : db.select({ id: subtasks.id }).from(subtasks).where(ofMajorTask).orderBy(...soonestDueFirst(subtasks.dueDate, subtasks.id)).limit(subtaskLimit);
  const ownSubtasks = db
    // The major task around is the same for all of its subtasks: as a sub-select of outer columns
    // only, PostgreSQL builds that reference once per major task, not once per subtask.
    .select({ list: jsonArray(subtaskJsonWith(sql`(select ${majorTaskRefJson})`), soonestDueFirst(subtasks.dueDate, subtasks.id)) })
    .from(subtasks)
    .leftJoin(assignees, eq(assignees.id, subtasks.assignedToId))
    .leftJoin(assigners, eq(assigners.id, subtasks.assignedById))
    .where(firstIds ? and(eq(subtasks.companyId, companyId), inArray(subtasks.id, firstIds)) : ofMajorTask);
  return jsonObject<MajorTask>({
    ...majorTaskOwnFields,
    subtasks: ownSubtasks,
  });
}

/**
 * A correlated subquery for a statement over projects: each project's major tasks with their
 * subtasks, oldest first, as one JSON array; with `bounds`, only the first so many major tasks,
 * each with its first (soonest due) so many subtasks, each picked before any is written as JSON.
 */
export function majorTasksOfProjectJson(db: DbOrTx, companyId: IdOrPlaceholder, bounds?: { majorTasks: number; subtasks: number }) {
  const ofProject = and(eq(majorTasks.companyId, companyId), eq(majorTasks.projectId, projects.id));
  const firstIds = bounds && db.select({ id: majorTasks.id }).from(majorTasks).where(ofProject).orderBy(asc(majorTasks.id)).limit(bounds.majorTasks);
  return db
    .select({ list: jsonArray(majorTaskJson(db, companyId, bounds?.subtasks), [asc(majorTasks.id)]) })
    .from(majorTasks)
    .leftJoin(creators, eq(creators.id, majorTasks.createdById))
    .where(firstIds ? and(eq(majorTasks.companyId, companyId), inArray(majorTasks.id, firstIds)) : ofProject);
}

/** The major task list statements built so far, one per shape (searched or not, paged how). */
const majorTaskPageStatement = builtOncePerShape('major_tasks');

const subtasksCounted = (condition?: SQL) => (condition ? sql`count(*) filter (where ${condition})` : sql`count(*)`);

/**
 * A page of the project's major tasks (oldest first, as the expanded project lists them), each
 * with its subtasks counted rather than listed, and their total: one statement. The page is picked
 * from the major tasks alone; only its rows are joined and counted.
 */
export async function listMajorTaskSummaries(db: DbOrTx, companyId: number, projectId: number, namePattern: string | undefined, page: PageRequest): Promise<Page<MajorTaskSummary>> {
  const shape = JSON.stringify([namePattern !== undefined, page.limit !== undefined, Boolean(page.offset)]);
  const statement = majorTaskPageStatement(db, shape, () => {
    const companyIdValue = sql.placeholder('companyId');
    const matching = and(
      eq(majorTasks.companyId, companyIdValue),
      eq(majorTasks.projectId, sql.placeholder('projectId')),
      namePattern === undefined ? undefined : sql`${majorTasks.name} ilike ${sql.placeholder('pattern')}`,
    );
    const pageIds = withPage(db.select({ id: majorTasks.id, total: matchingRowCount().as('total') }).from(majorTasks).where(matching).orderBy(asc(majorTasks.id)).$dynamic(), {
      limit: page.limit === undefined ? undefined : sql.placeholder('limit'),
      offset: page.offset ? sql.placeholder('offset') : undefined,
    }).as('page');
    // json_build_object, not jsonObject: that one's sub-select would take count(*) as its own (one row).
    const counts = db
      .select({
        counts: sql`json_build_object('total', ${subtasksCounted()}, 'completed', ${subtasksCounted(eq(subtasks.status, 'completed'))}, 'low', ${subtasksCounted(eq(subtasks.priority, 'low'))}, 'medium', ${subtasksCounted(eq(subtasks.priority, 'medium'))}, 'high', ${subtasksCounted(eq(subtasks.priority, 'high'))})`,
      })
      .from(subtasks)
      .where(and(eq(subtasks.companyId, companyIdValue), eq(subtasks.majorTaskId, majorTasks.id)));
    return db
      .select({
        majorTask: jsonObject<MajorTaskSummary>({
          ...majorTaskOwnFields,
          subtask_counts: sql`(${counts})`,
        }),
        total: pageIds.total,
      })
      .from(pageIds)
      .innerJoin(majorTasks, eq(majorTasks.id, pageIds.id))
      .innerJoin(projects, eq(projects.id, majorTasks.projectId))
      .leftJoin(creators, eq(creators.id, majorTasks.createdById))
      .orderBy(asc(pageIds.id));
  });
  const values = { companyId, projectId, pattern: namePattern, limit: page.limit, offset: page.offset };
  const rows = await statement.execute(values);
  return toPage(rows, page, (row) => row.majorTask, () => db.$count(majorTasks, and(eq(majorTasks.companyId, companyId), eq(majorTasks.projectId, projectId), namePattern === undefined ? undefined : sql`${majorTasks.name} ilike ${namePattern}`)));
}

const majorTaskStatement = builtOncePerDatabase((db) =>
  db
    .select({ majorTask: majorTaskJson(db, sql.placeholder('companyId')) })
    .from(majorTasks)
    .innerJoin(projects, eq(projects.id, majorTasks.projectId))
    .leftJoin(creators, eq(creators.id, majorTasks.createdById))
    .where(and(eq(majorTasks.companyId, sql.placeholder('companyId')), eq(majorTasks.id, sql.placeholder('majorTaskId'))))
    .prepare('find_major_task'),
);

/** One major task of the company with its subtasks: one statement, built once and prepared. */
export async function findMajorTask(db: DbOrTx, companyId: number, majorTaskId: number): Promise<MajorTask | undefined> {
  const [row] = await majorTaskStatement(db).execute({ companyId, majorTaskId });
  return row?.majorTask;
}

/*
 * The locks below make "nothing changes under a completed project" hold under concurrency: a task
 * write holds its project row FOR SHARE, so an admin completing that project waits for the write
 * to commit, and a write starting after the project was completed sees it. Project before
 * subtask is also the order a project deletion cascades in, so the two cannot deadlock.
 */

/** "Today" where the person acting is, for the new-subtask rules. */
const actorToday = (actorId: number) => localDate(personZone(actorId));

/** The company's project, share-locked for the rest of the transaction, and the actor's today. */
export async function lockProject(tx: DbOrTx, companyId: number, projectId: number, actorId: number) {
  const [row] = await tx
    .select({ id: projects.id, status: projects.status, managerId: projects.managerId, today: actorToday(actorId) })
    .from(projects)
    .where(and(eq(projects.companyId, companyId), eq(projects.id, projectId)))
    .for('share');
  return row;
}

/** The company's major task and its project, the project share-locked, and the actor's today. */
export async function lockMajorTaskProject(tx: DbOrTx, companyId: number, majorTaskId: number, actorId: number) {
  const [row] = await tx
    .select({
      majorTaskId: majorTasks.id,
      createdById: majorTasks.createdById,
      projectId: projects.id,
      projectStatus: projects.status,
      projectManagerId: projects.managerId,
      today: actorToday(actorId),
    })
    .from(majorTasks)
    .innerJoin(projects, eq(projects.id, majorTasks.projectId))
    .where(and(eq(majorTasks.companyId, companyId), eq(majorTasks.id, majorTaskId)))
    .for('share', { of: projects });
  return row;
}

/** The company's subtask's project, share-locked; then `lockSubtask` takes the subtask itself. */
export async function lockSubtaskProject(tx: DbOrTx, companyId: number, subtaskId: number) {
  const [row] = await tx
    .select({ projectId: projects.id, projectStatus: projects.status, projectManagerId: projects.managerId })
    .from(subtasks)
    .innerJoin(majorTasks, eq(majorTasks.id, subtasks.majorTaskId))
    .innerJoin(projects, eq(projects.id, majorTasks.projectId))
    .where(and(eq(subtasks.companyId, companyId), eq(subtasks.id, subtaskId)))
    .for('share', { of: projects });
  return row;
}

/**
 * The parties of a subtask of the company (its status, assignee, assigner, project manager and
 * project status) in one statement, without locks: for a question asked before a write, which asks
 * again under its locks. Undefined when the subtask is not the company's.
 */
export async function findSubtaskParties(db: DbOrTx, companyId: number, subtaskId: number) {
  const [row] = await db
    .select({ status: subtasks.status, assignedToId: subtasks.assignedToId, assignedById: subtasks.assignedById, projectManagerId: projects.managerId, projectStatus: projects.status })
    .from(subtasks)
    .innerJoin(majorTasks, eq(majorTasks.id, subtasks.majorTaskId))
    .innerJoin(projects, eq(projects.id, majorTasks.projectId))
    .where(and(eq(subtasks.companyId, companyId), eq(subtasks.id, subtaskId)));
  return row;
}

/** The subtask as it is now, locked against concurrent changes until the transaction ends. */
export async function lockSubtask(tx: DbOrTx, companyId: number, subtaskId: number) {
  const [row] = await tx
    .select({
      id: subtasks.id,
      majorTaskId: subtasks.majorTaskId,
      name: subtasks.name,
      description: subtasks.description,
      priority: subtasks.priority,
      status: subtasks.status,
      assignedToId: subtasks.assignedToId,
      assignedById: subtasks.assignedById,
      dueDate: subtasks.dueDate,
    })
    .from(subtasks)
    .where(and(eq(subtasks.companyId, companyId), eq(subtasks.id, subtaskId)))
    .for('update');
  return row;
}

export async function subtaskExists(db: DbOrTx, companyId: number, subtaskId: number): Promise<boolean> {
  const [row] = await db.select({ id: subtasks.id }).from(subtasks).where(and(eq(subtasks.companyId, companyId), eq(subtasks.id, subtaskId)));
  return row !== undefined;
}

/** Of these user ids, those that may be assigned a task: active managers and team members of the company. */
export async function findAssignableUserIds(db: DbOrTx, companyId: number, userIds: number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), inArray(users.id, userIds), isNull(users.deletedAt), inArray(users.role, ['manager', 'team_member'])))
    // They stay assignable until the work is stored: deleting one waits, then hands the new work on with the rest.
    .for('share');
  return new Set(rows.map((row) => row.id));
}

export async function insertMajorTask(
  tx: DbOrTx,
  values: { companyId: number; projectId: number; name: string; description: string; dueDate: string | null; createdById: number },
) {
  const [row] = await tx.insert(majorTasks).values(values).returning({ id: majorTasks.id });
  return row!;
}

export interface NewSubtask {
  companyId: number;
  majorTaskId: number;
  name: string;
  description: string;
  assignedToId: number;
  assignedById: number;
  dueDate: string;
  status: SubtaskStatus;
  priority: Priority;
  submittedAt?: Date;
  completedAt?: Date | null;
  pinSheetId?: number;
  pinX?: number;
  pinY?: number;
}

export function insertSubtasks(tx: DbOrTx, values: NewSubtask[]) {
  return tx.insert(subtasks).values(values).returning({ id: subtasks.id, assignedToId: subtasks.assignedToId, status: subtasks.status });
}

export async function updateSubtask(
  tx: DbOrTx,
  companyId: number,
  subtaskId: number,
  values: Partial<Pick<NewSubtask, 'name' | 'description' | 'assignedToId' | 'dueDate' | 'status' | 'priority' | 'submittedAt' | 'completedAt'>> & {
    pinSheetId?: number | null;
    pinX?: number | null;
    pinY?: number | null;
  },
) {
  await tx
    .update(subtasks)
    .set(values)
    .where(and(eq(subtasks.companyId, companyId), eq(subtasks.id, subtaskId)));
}

export async function updateMajorTask(tx: DbOrTx, companyId: number, majorTaskId: number, values: { name?: string; description?: string }) {
  await tx
    .update(majorTasks)
    .set(values)
    .where(and(eq(majorTasks.companyId, companyId), eq(majorTasks.id, majorTaskId)));
}

/** Its subtasks go with it (foreign key cascade). */
export async function deleteMajorTask(tx: DbOrTx, companyId: number, majorTaskId: number) {
  await tx.delete(majorTasks).where(and(eq(majorTasks.companyId, companyId), eq(majorTasks.id, majorTaskId)));
}

/** Keeps a major task's due date equal to the latest of its subtasks' (spec §3), in one statement. */
export async function refreshMajorTaskDueDate(tx: DbOrTx, companyId: number, majorTaskId: number) {
  const latest = tx.select({ latest: max(subtasks.dueDate) }).from(subtasks).where(and(eq(subtasks.companyId, companyId), eq(subtasks.majorTaskId, majorTaskId)));
  await tx
    .update(majorTasks)
    .set({ dueDate: sql`(${latest})` })
    .where(and(eq(majorTasks.companyId, companyId), eq(majorTasks.id, majorTaskId)));
}

/** The project's unfinished work (of the company): not completed, not closed. What completing it would close (decision record 061). */
export async function countProjectOpenWork(db: DbOrTx, companyId: number, projectId: number): Promise<number> {
  const [row] = await db
    .select({ count: count() })
    .from(subtasks)
    .innerJoin(majorTasks, eq(majorTasks.id, subtasks.majorTaskId))
    .where(and(eq(subtasks.companyId, companyId), eq(majorTasks.projectId, projectId), inArray(subtasks.status, openStatuses), isNull(subtasks.closedUnfinishedAt)));
  return row!.count;
}

/**
 * Completing a project approves nothing (decision record 061): its unfinished subtasks keep their
 * status and are closed unfinished in one statement, each with a line of history naming who
 * completed the project, so they leave every to-do list and count. Answers how many were closed.
 */
export function closeProjectOpenWork(tx: DbOrTx, companyId: number, projectId: number, actorId: number): Promise<number> {
  return markProjectWork(tx, companyId, projectId, actorId, 'closed_unfinished');
}

/** Reopening a completed project reopens the work its completion closed, each with a line of history naming who reopened it. */
export function reopenProjectWork(tx: DbOrTx, companyId: number, projectId: number, actorId: number): Promise<number> {
  return markProjectWork(tx, companyId, projectId, actorId, 'reopened');
}

/** Closes a project's open work unfinished, or reopens what was closed: one statement with its lines of history; answers how many. */
async function markProjectWork(tx: DbOrTx, companyId: number, projectId: number, actorId: number, type: 'closed_unfinished' | 'reopened'): Promise<number> {
  const closing = type === 'closed_unfinished';
  const result = await tx.execute(sql`
    with marked as (
      update ${subtasks} set closed_unfinished_at = ${closing ? sql`now()` : sql`null`}
      from ${majorTasks}
      where ${majorTasks.id} = ${subtasks.majorTaskId} and ${majorTasks.projectId} = ${projectId} and ${subtasks.companyId} = ${companyId}
        and ${closing ? sql`${subtasks.status} <> 'completed' and ${subtasks.closedUnfinishedAt} is null` : sql`${subtasks.closedUnfinishedAt} is not null`}
      returning ${subtasks.id} as id, ${subtasks.status} as status
    ), history as (
      insert into ${subtaskActivity} (company_id, subtask_id, actor_id, type, from_status, to_status)
      select ${companyId}, id, ${actorId}, ${type}, status, status from marked
    )
    select count(*)::int as marked from marked
  `);
  return (result as unknown as { rows: { marked: number }[] }).rows[0]!.marked;
}

/**
 * The user's subtasks in `status` in projects not completed (a completed project's work is closed).
 * Open work is the ongoing ones, still to be done. Work sent for approval (`pending_approval`) is
 * done: it stays with who did it, for their manager to approve (credited to them) or decline (back
 * to ongoing, marked as theirs who left).
 */
function workOf(companyId: number, userId: number, status: 'ongoing' | 'pending_approval'): SQL {
  const activeMajorTasks = sql`select ${majorTasks.id} from ${majorTasks} join ${projects} on ${projects.id} = ${majorTasks.projectId} where ${majorTasks.companyId} = ${companyId} and ${projects.status} <> 'completed'`;
  return and(eq(subtasks.companyId, companyId), eq(subtasks.assignedToId, userId), eq(subtasks.status, status), sql`${subtasks.majorTaskId} in (${activeMajorTasks})`)!;
}

/** How many of the user's subtasks are in `status` in projects not completed: `ongoing`, their open work; `pending_approval`, what they sent that waits for approval. */
export async function countWorkOf(db: DbOrTx, companyId: number, userId: number, status: 'ongoing' | 'pending_approval'): Promise<number> {
  return db.$count(subtasks, workOf(companyId, userId, status));
}

/**
 * Hands the user's open subtasks to another person in one statement, each with a line of history
 * (who took it from whom); answers the ids moved. Only work that may change hands moves
 * (REASSIGNABLE_STATUS, the rule of a PATCH too): what they sent for approval and what was approved stays theirs.
 */
export async function reassignOpenWork(
  tx: DbOrTx,
  companyId: number,
  from: { id: number; email: string },
  to: { id: number; email: string },
  actorId: number,
): Promise<number[]> {
  const changes = JSON.stringify({ assigned_to: { from, to } });
  const result = await tx.execute(sql`
    with moved as (
      update ${subtasks} set assigned_to_id = ${to.id}
      where ${workOf(companyId, from.id, REASSIGNABLE_STATUS)}
      returning ${subtasks.id} as id
    ), history as (
      insert into ${subtaskActivity} (company_id, subtask_id, actor_id, type, changes)
      select ${companyId}, id, ${actorId}, 'edited', ${changes}::jsonb from moved
    )
    select id from moved order by id
  `);
  return (result as unknown as { rows: { id: number }[] }).rows.map((row) => row.id);
}
