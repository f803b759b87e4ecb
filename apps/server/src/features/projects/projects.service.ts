import type { z } from 'zod';
import {
  MAJOR_TASKS_PER_LISTED_PROJECT,
  PROJECT_NOT_FOUND,
  SUBTASKS_PER_LISTED_MAJOR_TASK,
  type createProjectInput,
  type ExpandedProject,
  type majorTaskListQuery,
  type MajorTaskSummary,
  idParams,
  type Project,
  projectSubtaskListQuery,
  type SubtaskPage,
  subtaskPagesQuery,
  type Subtask,
  type projectListQuery,
  type projectQuery,
  type updateProjectInput,
} from '@siteboard/shared';
import { type DbOrTx, type Guard, type ServiceContext, ConflictError, fieldError, foundInCompany, NotFoundError } from '../../platform';
import type { ListExport } from '../../lib/exports';
import { containingPattern, keysetBatches, type Page, type PageRequest } from '../../lib/lists';
import { listProjectSheetFiles, queueSheetFileRemoval } from '../sheets/sheets.queries';
import { closeProjectOpenWork, countProjectOpenWork, listFirstSubtaskPages, listMajorTaskSummaries, listSubtaskPage, reopenProjectWork } from '../tasks/tasks.queries';
import { MAJOR_TASK_NOT_FOUND } from '../tasks/tasks.rules';
import { findActiveMember, namesAStranger } from '../users/users.queries';
import { USER_NOT_FOUND } from '../users/users.rules';
import { PROJECT_CSV_COLUMNS } from './projects.csv';
import { PROJECT_SHEET_COLUMNS } from './projects.xlsx';
import {
  countProjectMajorTasks,
  deleteProject as deleteProjectRow,
  findProjectRow,
  insertProject,
  listProjectBatch,
  listProjectRows,
  lockProjectForUpdate,
  projectExists,
  updateProject as updateProjectRow,
  type ProjectExportRow,
  type ProjectValues,
} from './projects.queries';
import { endDateError, openWorkConflict, resolveManagerField } from './projects.rules';

export const INVALID_MANAGER = 'Select an active manager of your company.';

type ProjectListQuery = z.output<typeof projectListQuery>;
type ProjectQuery = z.output<typeof projectQuery>;
type CreateProject = z.output<typeof createProjectInput>;
type UpdateProject = z.output<typeof updateProjectInput>;

/**
 * The caller's company's projects, filtered and paged as asked, with their major task ids or,
 * with `expand=major_tasks`, their first major tasks with their first subtasks: one statement however
 * many rows, only the page's projects expanded.
 */
export function listProjects(ctx: ServiceContext, query: ProjectListQuery): Promise<Page<Project | ExpandedProject>> {
  return listProjectRows(
    ctx.db,
    ctx.user.companyId,
    { statuses: query.status, search: query.search },
    { ...query, expandMajorTasks: query.expand === 'major_tasks', expansionBounds: { majorTasks: MAJOR_TASKS_PER_LISTED_PROJECT, subtasks: SUBTASKS_PER_LISTED_MAJOR_TASK } },
  );
}

/** The same projects as the list, every one of them, in its order, as a file. */
export function projectsExport(ctx: ServiceContext, query: ProjectListQuery): ListExport<ProjectExportRow> {
  const filter = { statuses: query.status, search: query.search };
  return {
    // The tab it was asked from is in the name: ongoing and completed exports are two files, not one name twice.
    name: ['projects', ...(query.status ?? [])].join('-'),
    title: 'Projects',
    csv: PROJECT_CSV_COLUMNS,
    sheet: PROJECT_SHEET_COLUMNS,
    batches: keysetBatches((last, size) => listProjectBatch(ctx.db, ctx.user.companyId, filter, query.order, last?.id, size)),
  };
}

/** One project of the caller's company, in the list's shape. */
export function getProject(ctx: ServiceContext, projectId: number, query: ProjectQuery): Promise<Project> {
  return findProject(ctx.db, ctx.user.companyId, projectId, query.expand);
}

async function findProject(db: DbOrTx, companyId: number, projectId: number, expand?: ProjectQuery['expand']): Promise<Project> {
  const project = await findProjectRow(db, companyId, projectId, expand === 'major_tasks');
  if (!project) throw new NotFoundError(PROJECT_NOT_FOUND);
  return project;
}

/** A manager id from a body is tenant data: it must name an active manager of the caller's own company (another company's, or none: 404). */
async function assertManager(db: DbOrTx, companyId: number, managerId: number, field: string) {
  const member = await findActiveMember(db, companyId, managerId);
  if (member?.role === 'manager') return;
  if (await namesAStranger(db, companyId, [managerId])) throw new NotFoundError(USER_NOT_FOUND);
  throw fieldError(field, INVALID_MANAGER);
}

export async function createProject(ctx: ServiceContext, input: CreateProject): Promise<Project> {
  const { companyId } = ctx.user;
  // The spec's client sends its company id; another company's id must not reveal that company exists.
  if (input.company_id != null && input.company_id !== companyId) throw new NotFoundError('Company not found.');
  return ctx.db.transaction(async (tx) => {
    await assertManager(tx, companyId, input.manager_id, 'manager_id');
    const { id } = await insertProject(tx, companyId, {
      name: input.name,
      description: input.description,
      startDate: input.start_date,
      endDate: input.end_date,
      status: input.status,
      managerId: input.manager_id,
    });
    return findProject(tx, companyId, id);
  });
}

export async function updateProject(ctx: ServiceContext, projectId: number, input: UpdateProject): Promise<Project> {
  const { companyId } = ctx.user;
  return ctx.db.transaction(async (tx) => {
    const current = await lockProjectForUpdate(tx, companyId, projectId);
    if (!current) throw new NotFoundError(PROJECT_NOT_FOUND);

    const manager = resolveManagerField(input);
    if (!manager.ok) throw fieldError(manager.field, manager.message);
    if (manager.managerId !== undefined) await assertManager(tx, companyId, manager.managerId, manager.field);

    const endError = endDateError(input.start_date ?? current.startDate, input.end_date ?? current.endDate);
    if (endError) throw fieldError('end_date', endError);

    // Completing approves nothing: it closes the unfinished work as unfinished, once the caller
    // has seen how much (decision record 061). Reopening reopens what completing closed.
    const completes = input.status === 'completed' && current.status !== 'completed';
    if (completes) {
      const open = await countProjectOpenWork(tx, companyId, projectId);
      if (open > 0 && !input.confirm_open_work) throw new ConflictError(openWorkConflict(open));
      if (open > 0) await closeProjectOpenWork(tx, companyId, projectId, ctx.user.id);
    }
    if (input.status !== undefined && input.status !== 'completed' && current.status === 'completed') await reopenProjectWork(tx, companyId, projectId, ctx.user.id);

    const values: Partial<ProjectValues> = {
      name: input.name,
      description: input.description,
      startDate: input.start_date,
      endDate: input.end_date,
      status: input.status,
      managerId: manager.managerId,
    };
    await updateProjectRow(tx, companyId, projectId, values);
    return findProject(tx, companyId, projectId);
  });
}

/**
 * The project's unfinished work (pending approval and ongoing), soonest due first, a page of it:
 * what completing the project would close as unfinished. Two statements.
 */
export async function listProjectOpenWork(ctx: ServiceContext, projectId: number, page: PageRequest): Promise<Page<Subtask>> {
  const { companyId } = ctx.user;
  if (!(await findProjectRow(ctx.db, companyId, projectId, false))) throw new NotFoundError(PROJECT_NOT_FOUND);
  return listSubtaskPage(ctx.db, companyId, { projectId, notCompleted: true }, page);
}

/**
 * A page of the project's major tasks, oldest first, searched by name, each with its subtasks
 * counted instead of listed: what a major-task picker or an opened project shows, bounded however
 * much work the project holds. One statement; the route's guard has found the project.
 */
export function listProjectMajorTasks(ctx: ServiceContext, projectId: number, query: z.output<typeof majorTaskListQuery>): Promise<Page<MajorTaskSummary>> {
  return listMajorTaskSummaries(ctx.db, ctx.user.companyId, projectId, query.search === undefined ? undefined : containingPattern(query.search), query);
}

/**
 * A page of the project's subtasks, soonest due first, searched by name, of one major task or on
 * no drawing if asked: what an opened major task or the drawings' pin picker shows. One statement;
 * the route's guard has found the project and the major task named.
 */
export function listProjectSubtasks(ctx: ServiceContext, projectId: number, query: z.output<typeof projectSubtaskListQuery>): Promise<Page<Subtask>> {
  return listSubtaskPage(
    ctx.db,
    ctx.user.companyId,
    {
      projectId,
      majorTaskId: query.major_task_id,
      namePattern: query.search === undefined ? undefined : containingPattern(query.search),
      pinned: query.pinned === true ? true : undefined,
      unpinned: query.pinned === false ? true : undefined,
    },
    query,
  );
}

/**
 * The first page of subtasks of each of the project's major tasks named, with each one's total:
 * what an opened project shows under a page of its major tasks, in one request rather than one per
 * major task. One statement; the route's guard has found the project and the major tasks named (a
 * major task not of this project is a 404).
 */
export async function listProjectSubtaskPages(ctx: ServiceContext, query: z.output<typeof subtaskPagesQuery>): Promise<SubtaskPage[]> {
  const ids = query.major_task_ids;
  const pages = await listFirstSubtaskPages(ctx.db, ctx.user.companyId, ids, query.limit);
  return ids.map((id) => ({ major_task_id: id, total: pages.get(id)!.total, subtasks: pages.get(id)!.items }));
}

/** Guard: the project the path names is the company's (404 otherwise), asked before a change's body is read. */
export const projectFound = foundInCompany(projectExists, PROJECT_NOT_FOUND);

/**
 * Guard of the project's subtask lists: the project the path names is the company's, and so is
 * every major task of it the query names (`major_task_id`, `major_task_ids`), else 404 before the
 * rest of the query is read; one statement. Another project's or company's major task is not
 * found, as the object a path names. Values that name nothing are left to validation (400).
 */
export const projectAndMajorTasksFound: Guard = async (request) => {
  const path = idParams.safeParse(request.params);
  if (!path.success) return;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const one = projectSubtaskListQuery.shape.major_task_id.safeParse(query.major_task_id);
  const several = subtaskPagesQuery.shape.major_task_ids.safeParse(query.major_task_ids);
  const named = [...new Set([...(one.success && one.data !== undefined ? [one.data] : []), ...(several.success ? several.data : [])])];
  const found = await countProjectMajorTasks(request.ctx.db, request.user.companyId, path.data.id, named);
  if (found === undefined) throw new NotFoundError(PROJECT_NOT_FOUND);
  if (found < named.length) throw new NotFoundError(MAJOR_TASK_NOT_FOUND);
};

/** Deletes the project and, by cascade, all in it; its drawings' files go by a job queued in the same transaction. */
export async function deleteProject(ctx: ServiceContext, projectId: number): Promise<void> {
  const { companyId } = ctx.user;
  await ctx.db.transaction(async (tx) => {
    const drawings = await listProjectSheetFiles(tx, companyId, projectId);
    if (!(await deleteProjectRow(tx, companyId, projectId))) throw new NotFoundError(PROJECT_NOT_FOUND);
    await queueSheetFileRemoval(tx, drawings);
  });
}
