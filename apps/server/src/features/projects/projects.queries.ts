import { and, asc, desc, eq, gt, inArray, lt, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { MajorTask, Project, ProjectStatus } from '@siteboard/shared';
import { type DbOrTx, builtOncePerDatabase, builtOncePerShape, type IdOrPlaceholder } from '../../platform';
import { companies } from '../../schema/companies';
import { projects } from '../../schema/projects';
import { majorTasks } from '../../schema/tasks';
import { users } from '../../schema/users';
import { containingPattern, containsIgnoringCase, matchingRowCount, toPage, withPage, type Page, type PageRequest } from '../../lib/lists';
import { majorTasksOfProjectJson } from '../tasks/tasks.queries';

const managers = alias(users, 'managers');

export interface ProjectFilter {
  id?: IdOrPlaceholder;
  /** The statuses, or where a statement built once takes them. */
  statuses?: ProjectStatus[] | Placeholder;
  /** A case-insensitive substring of the name, or where a statement built once takes its ILIKE pattern (containingPattern). */
  search?: string | Placeholder;
}

export type ProjectOrder = 'oldest' | 'newest';

function projectConditions(companyId: IdOrPlaceholder, filter: ProjectFilter): SQL[] {
  const conditions = [eq(projects.companyId, companyId)];
  if (filter.id !== undefined) conditions.push(eq(projects.id, filter.id));
  if (filter.statuses) conditions.push(Array.isArray(filter.statuses) ? inArray(projects.status, filter.statuses) : sql`${projects.status} = any(${filter.statuses})`);
  if (filter.search) conditions.push(typeof filter.search === 'string' ? containsIgnoringCase(projects.name, filter.search) : sql`${projects.name} ilike ${filter.search}`);
  return conditions;
}

/** A project's own fields, as both the list and the export read them. */
const projectFields = {
  id: projects.id,
  name: projects.name,
  description: projects.description,
  startDate: projects.startDate,
  endDate: projects.endDate,
  status: projects.status,
};

type ProjectRowsRequest = PageRequest & ProjectRowsShape;

/** What decides a list statement's shape beyond its filters: built once for each, its page bounds as placeholders. */
interface ProjectRowsShape {
  order?: ProjectOrder;
  expandMajorTasks?: boolean;
  /** How many major tasks each expanded project carries at most, and subtasks each of those; all when unset. */
  expansionBounds?: { majorTasks: number; subtasks: number };
}

/**
 * The company's matching projects (oldest first unless asked otherwise) with their manager,
 * company and major task ids, or with `expandMajorTasks` the major tasks themselves with their
 * subtasks: one statement for the page and its total. The page is picked from the projects alone
 * and only its rows are joined and expanded (joining all 900 matches to keep 10 was most of the
 * statement).
 */
function selectProjectRows(db: DbOrTx, companyId: IdOrPlaceholder, filter: ProjectFilter, page: ProjectRowsShape & { limit?: number | Placeholder; offset?: number | Placeholder }) {
  const inOrder = (id: typeof projects.id) => (page.order === 'newest' ? desc(id) : asc(id));
  const pageIds = withPage(
    db
      .select({ id: projects.id, total: matchingRowCount().as('total') })
      .from(projects)
      .where(and(...projectConditions(companyId, filter)))
      .orderBy(inOrder(projects.id))
      .$dynamic(),
    page,
  ).as('page');
  return db
    .select({
      ...projectFields,
      managerId: projects.managerId,
      managerEmail: managers.email,
      managerFullName: managers.fullName,
      companyId: companies.id,
      companyName: companies.name,
      majorTasks: page.expandMajorTasks
        ? sql<MajorTask[]>`${majorTasksOfProjectJson(db, companyId, page.expansionBounds)}`
        : sql<number[]>`(select coalesce(array_agg(${majorTasks.id} order by ${majorTasks.id}), '{}') from ${majorTasks} where ${majorTasks.companyId} = ${companyId} and ${majorTasks.projectId} = ${projects.id})`,
      total: pageIds.total,
    })
    .from(pageIds)
    .innerJoin(projects, eq(projects.id, pageIds.id))
    .innerJoin(companies, eq(companies.id, projects.companyId))
    .leftJoin(managers, eq(managers.id, projects.managerId))
    .orderBy(inOrder(projects.id));
}

type ProjectRow = Awaited<ReturnType<typeof selectProjectRows>>[number];

function toProject(row: ProjectRow): Project {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    start_date: row.startDate,
    end_date: row.endDate,
    status: row.status,
    manager: row.managerId !== null && row.managerEmail !== null ? { id: row.managerId, email: row.managerEmail, full_name: row.managerFullName } : null,
    company: { id: row.companyId, name: row.companyName },
    major_tasks: row.majorTasks,
  };
}

/** The list statements built so far, one per shape of filter and page: a few dozen at most, as shapes come from the code, never from values. */
const projectListStatement = builtOncePerShape('projects');

/**
 * A page of the company's matching projects and their total, from a statement built once per shape
 * and prepared: building its SQL text on every request took 6 % of the server's time for the list
 * (decision record 006, late addendum).
 */
export async function listProjectRows(db: DbOrTx, companyId: number, filter: { statuses?: ProjectStatus[]; search?: string } = {}, page: ProjectRowsRequest = {}): Promise<Page<Project>> {
  const { order, expandMajorTasks, expansionBounds, limit, offset } = page;
  const shape = JSON.stringify([filter.statuses !== undefined, Boolean(filter.search), order ?? 'oldest', expandMajorTasks ?? false, expansionBounds ?? null, limit !== undefined, Boolean(offset)]);
  const statement = projectListStatement<ProjectRow>(db, shape, () =>
    selectProjectRows(
      db,
      sql.placeholder('companyId'),
      { statuses: filter.statuses && sql.placeholder('statuses'), search: filter.search ? sql.placeholder('pattern') : undefined },
      { order, expandMajorTasks, expansionBounds, limit: limit === undefined ? undefined : sql.placeholder('limit'), offset: offset ? sql.placeholder('offset') : undefined },
    ),
  );
  const rows = await statement.execute({ companyId, statuses: filter.statuses, pattern: filter.search ? containingPattern(filter.search) : undefined, limit, offset });
  return toPage(rows, page, toProject, () => countProjects(db, companyId, filter));
}

/** How many of the company's projects match: the total the list would report, without its rows. */
export function countProjects(db: DbOrTx, companyId: number, filter: ProjectFilter): Promise<number> {
  return db.$count(projects, and(...projectConditions(companyId, filter)));
}

/** A project as an export lists it: its own fields and its manager's e-mail and full name. */
export interface ProjectExportRow {
  id: number;
  name: string;
  description: string;
  startDate: string;
  endDate: string;
  status: ProjectStatus;
  manager: string | null;
  managerName: string | null;
}

/** Up to `size` of the company's matching projects after the project `afterId` in the order asked, for an export. */
export function listProjectBatch(db: DbOrTx, companyId: number, filter: ProjectFilter, order: ProjectOrder | undefined, afterId: number | undefined, size: number): Promise<ProjectExportRow[]> {
  const newest = order === 'newest';
  const after = afterId === undefined ? undefined : newest ? lt(projects.id, afterId) : gt(projects.id, afterId);
  return db
    .select({ ...projectFields, manager: managers.email, managerName: managers.fullName })
    .from(projects)
    .leftJoin(managers, eq(managers.id, projects.managerId))
    .where(and(...projectConditions(companyId, filter), after))
    .orderBy(newest ? desc(projects.id) : asc(projects.id))
    .limit(size);
}

const oneProject = { id: sql.placeholder('projectId') };
const projectStatement = builtOncePerDatabase((db) => selectProjectRows(db, sql.placeholder('companyId'), oneProject, {}).prepare('find_project'));
const expandedProjectStatement = builtOncePerDatabase((db) =>
  selectProjectRows(db, sql.placeholder('companyId'), oneProject, { expandMajorTasks: true }).prepare('find_project_expanded'),
);

/** One project of the company in the list's shape, expanded if asked: the statement is built once and prepared. */
export async function findProjectRow(db: DbOrTx, companyId: number, projectId: number, expandMajorTasks: boolean): Promise<Project | undefined> {
  const [row] = await (expandMajorTasks ? expandedProjectStatement : projectStatement)(db).execute({ companyId, projectId });
  return row && toProject(row);
}

/** The project's current dates, locked until the transaction ends so a merged check cannot go stale. */
/** Whether the company has this project. */
export async function projectExists(db: DbOrTx, companyId: number, projectId: number): Promise<boolean> {
  const rows = await db.select({ id: projects.id }).from(projects).where(and(eq(projects.companyId, companyId), eq(projects.id, projectId)));
  return rows.length > 0;
}

/**
 * Whether the company's project exists and, if so, how many of these ids name its major tasks:
 * one statement. Undefined: no such project of the company.
 */
export async function countProjectMajorTasks(db: DbOrTx, companyId: number, projectId: number, majorTaskIds: number[]): Promise<number | undefined> {
  const found =
    majorTaskIds.length === 0
      ? sql<number>`0`
      : sql<number>`(select count(*) from ${majorTasks} where ${majorTasks.companyId} = ${companyId} and ${majorTasks.projectId} = ${projectId} and ${inArray(majorTasks.id, majorTaskIds)})`;
  const [row] = await db
    .select({ found: found.mapWith(Number) })
    .from(projects)
    .where(and(eq(projects.companyId, companyId), eq(projects.id, projectId)));
  return row?.found;
}

export async function lockProjectForUpdate(tx: DbOrTx, companyId: number, projectId: number) {
  const [row] = await tx
    .select({ id: projects.id, status: projects.status, startDate: projects.startDate, endDate: projects.endDate })
    .from(projects)
    .where(and(eq(projects.companyId, companyId), eq(projects.id, projectId)))
    .for('update');
  return row;
}

export interface ProjectValues {
  name: string;
  description: string;
  startDate: string;
  endDate: string;
  status: ProjectStatus;
  managerId: number;
}

export async function insertProject(db: DbOrTx, companyId: number, values: ProjectValues) {
  const [row] = await db
    .insert(projects)
    .values({ ...values, companyId })
    .returning({ id: projects.id });
  return row!;
}

export async function updateProject(tx: DbOrTx, companyId: number, projectId: number, values: Partial<ProjectValues>) {
  await tx
    .update(projects)
    .set(values)
    .where(and(eq(projects.companyId, companyId), eq(projects.id, projectId)));
}

/** Its major tasks and their subtasks go with it (foreign key cascade). Answers whether a row was deleted. */
export async function deleteProject(db: DbOrTx, companyId: number, projectId: number): Promise<boolean> {
  const rows = await db
    .delete(projects)
    .where(and(eq(projects.companyId, companyId), eq(projects.id, projectId)))
    .returning({ id: projects.id });
  return rows.length > 0;
}
