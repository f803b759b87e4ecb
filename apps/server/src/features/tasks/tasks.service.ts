import type { z } from 'zod';
import {
  COMPLETED_PROJECT_READ_ONLY,
  INVALID_ASSIGNEE,
  SUBTASK_CHANGED_MEANWHILE,
  NOT_YOUR_MAJOR_TASK,
  PIN_NEEDS_APPROVER,
  PIN_SHEET_OF_ANOTHER_PROJECT,
  SHEET_NOT_LATEST,
  canManageMajorTask,
  canMoveSubtaskPin,
  idParams,
  decideNewSubtask,
  decideSubtaskEdit,
  isSubtaskParty,
  NOT_YOUR_SUBTASK,
  type NewSubtaskDecision,
  type Actor,
  type StatusChange,
  type SubtaskDecision,
  type createMajorTaskInput,
  type createSubtaskInput,
  type MajorTask,
  type MessageKey,
  type Subtask,
  type SubtaskStatus,
  subtaskListQuery,
  type updateMajorTaskInput,
  type updateSubtaskInput,
  PROJECT_NOT_FOUND,
} from '@siteboard/shared';
import { type DbOrTx, type Guard, type Tx, type ServiceContext, ConflictError, isForeignKeyViolation, ForbiddenError, NotFoundError, ValidationError, fieldError, type FieldErrors } from '../../platform';
import type { ListExport } from '../../lib/exports';
import { keysetBatches, type Page, type PageRequest } from '../../lib/lists';
import { events, type EventActor } from '../../lib/events';
import {
  deleteMajorTask as deleteMajorTaskRow,
  findAssignableUserIds,
  findMajorTask,
  findSubtask,
  findSubtaskParties,
  insertMajorTask,
  insertSubtasks,
  listSubtaskBatch,
  listSubtaskPage,
  lockMajorTaskProject,
  lockProject,
  lockSubtask,
  lockSubtaskProject,
  refreshMajorTaskDueDate,
  updateMajorTask as updateMajorTaskRow,
  updateSubtask as updateSubtaskRow,
  type NewSubtask,
  type SubtaskExportRow,
  type SubtaskFilter,
} from './tasks.queries';
import { findPeople, insertActivity } from './activity.queries';
import { findSheetAccess } from '../sheets/sheets.queries';
import { namesAStranger, userExists } from '../users/users.queries';
import { USER_NOT_FOUND } from '../users/users.rules';
import { editedFields, latestDueDate, MAJOR_TASK_NOT_FOUND, pendingApprovalsFilter, statusTimestamps, SUBTASK_NOT_FOUND, tasksDueTodayFilter, type FieldChanges } from './tasks.rules';
import { SUBTASK_CSV_COLUMNS } from './tasks.csv';
import { SUBTASK_SHEET_COLUMNS } from './tasks.xlsx';

export const MAJOR_TASK_CONFLICT = 'Send the major task as major_task or as major_task_id, not two different values.';

type CreateMajorTask = z.output<typeof createMajorTaskInput>;
type UpdateMajorTask = z.output<typeof updateMajorTaskInput>;
type CreateSubtask = z.output<typeof createSubtaskInput>;
type UpdateSubtask = z.output<typeof updateSubtaskInput>;
type SubtaskListQuery = z.output<typeof subtaskListQuery>;

const actorOf = (ctx: ServiceContext): Actor => ({ id: ctx.user.id, role: ctx.user.role });

function throwRefusal(decision: Extract<SubtaskDecision, { ok: false }>): never {
  const errors = { forbidden: ForbiddenError, invalid: ValidationError, conflict: ConflictError };
  throw new errors[decision.error](decision.message);
}

/** A new subtask's refusal, an invalid value named at its field (`field` is where the form shows it). */
function throwNewSubtaskRefusal(decision: Extract<NewSubtaskDecision, { ok: false }>, field: string): never {
  throw decision.error === 'forbidden' ? new ForbiddenError(decision.message) : fieldError(field, decision.message);
}

/** Assignee ids from a body are tenant data: each must be an active manager or team member of the caller's company (another company's, or none: 404). */
async function assertAssignable(db: DbOrTx, companyId: number, assignees: { field: string; userId: number }[]) {
  const assignable = await findAssignableUserIds(db, companyId, [...new Set(assignees.map((assignee) => assignee.userId))]);
  const refused = assignees.filter(({ userId }) => !assignable.has(userId));
  if (refused.length === 0) return;
  if (await namesAStranger(db, companyId, refused.map(({ userId }) => userId))) throw new NotFoundError(USER_NOT_FOUND);
  const errors: FieldErrors = Object.fromEntries(refused.map(({ field }) => [field, [INVALID_ASSIGNEE]]));
  throw new ValidationError(INVALID_ASSIGNEE, errors);
}

/** The status changes the workflow names (spec §4); the manager's other dropdown moves announce nothing. */
const STATUS_EVENTS: Partial<Record<`${SubtaskStatus}>${SubtaskStatus}`, 'subtask.submitted' | 'subtask.approved' | 'subtask.declined'>> = {
  'ongoing>pending_approval': 'subtask.submitted',
  'pending_approval>completed': 'subtask.approved',
  'pending_approval>ongoing': 'subtask.declined',
};

const actorOfEvent = (ctx: ServiceContext): EventActor => ({ id: ctx.user.id, companyId: ctx.user.companyId, email: ctx.user.email });

/**
 * What was found, or a 404. The writes read their answer with it inside their transaction, so the
 * answer is what they committed: a read after the commit could find it deleted meanwhile. The read
 * is then built for that transaction (decision record 006): the same one statement, a little work.
 */
async function orNotFound<T>(found: Promise<T | undefined>, notFound: string): Promise<T> {
  const value = await found;
  if (value === undefined) throw new NotFoundError(notFound);
  return value;
}

/**
 * Every subtask is created here, inside the caller's transaction, with who creates it, for whom
 * and in which status at hand; 'subtasks.assigned' lets subscribers (task_assignment
 * notifications) write in the same transaction.
 */
async function addSubtasks(tx: Tx, ctx: ServiceContext, rows: NewSubtask[]) {
  const created = await insertSubtasks(tx, rows);
  const { companyId, id: actorId } = ctx.user;
  const { doneAt } = ctx;
  await insertActivity(
    tx,
    created.flatMap((row) => [
      { companyId, subtaskId: row.id, actorId, type: 'created' as const, doneAt },
      // Created in another status: that status change made by its creator.
      ...(row.status === 'ongoing' ? [] : [{ companyId, subtaskId: row.id, actorId, type: 'status_changed' as const, fromStatus: 'ongoing' as const, toStatus: row.status, doneAt }]),
    ]),
  );
  await events.emit(tx, 'subtasks.assigned', { actor: actorOfEvent(ctx), subtaskIds: created.map((row) => row.id) });
  return created;
}

/**
 * Every change to an existing subtask is written here, inside the caller's transaction, with the
 * actor, the subtask, its edits and its status change at hand: the row, its history (an edit, a
 * status change carrying what was said with it, or the words alone as a comment), and the events
 * that let subscribers (task_submission, task_approved, task_declined with its reason,
 * task_assignment on a new assignee) write in the same transaction.
 */
async function writeSubtaskChange(
  tx: Tx,
  ctx: ServiceContext,
  change: { subtaskId: number; values: Parameters<typeof updateSubtaskRow>[3]; statusChange?: StatusChange; newAssigneeId?: number; formerAssigneeId?: number | null; edits: FieldChanges; comment?: string },
) {
  const { companyId, id: actorId } = ctx.user;
  const { doneAt } = ctx;
  const { subtaskId, statusChange, comment } = change;
  await updateSubtaskRow(tx, companyId, subtaskId, change.values);
  await insertActivity(tx, [
    ...(Object.keys(change.edits).length > 0 ? [{ companyId, subtaskId, actorId, type: 'edited' as const, changes: change.edits, doneAt }] : []),
    ...(statusChange
      ? [{ companyId, subtaskId, actorId, type: 'status_changed' as const, fromStatus: statusChange.from, toStatus: statusChange.to, text: comment ?? null, doneAt }]
      : comment
        ? [{ companyId, subtaskId, actorId, type: 'comment' as const, text: comment, doneAt }]
        : []),
  ]);
  const actor = actorOfEvent(ctx);
  if (change.newAssigneeId !== undefined) await events.emit(tx, 'subtasks.assigned', { actor, subtaskIds: [subtaskId] });
  // Whoever had it hears it is no longer theirs: a crew member's task vanished from their list without a word.
  if (change.newAssigneeId !== undefined && change.formerAssigneeId) await events.emit(tx, 'subtask.unassigned', { actor, subtaskId, formerAssigneeId: change.formerAssigneeId });
  const event = statusChange && STATUS_EVENTS[`${statusChange.from}>${statusChange.to}`];
  if (event) await events.emit(tx, event, { actor, subtaskId, comment });
  else if (comment) await events.emit(tx, 'subtask.commented', { actor, subtaskId, text: comment });
}

export function getSubtask(ctx: ServiceContext, subtaskId: number): Promise<Subtask> {
  return orNotFound(findSubtask(ctx.db, ctx.user.companyId, subtaskId), SUBTASK_NOT_FOUND);
}

export async function getMajorTask(ctx: ServiceContext, majorTaskId: number): Promise<MajorTask> {
  return orNotFound(findMajorTask(ctx.db, ctx.user.companyId, majorTaskId), MAJOR_TASK_NOT_FOUND);
}

/** A major task and all its subtasks, together or not at all. Its due date is the latest of theirs. */
export async function createMajorTask(ctx: ServiceContext, input: CreateMajorTask): Promise<MajorTask> {
  const { companyId, id: userId } = ctx.user;
  // The answer is read in the transaction that made it, as createSubtask's is: a deletion of its
  // project right after the commit must not turn what was made into a 404.
  return ctx.db.transaction(async (tx) => {
    const project = await lockProject(tx, companyId, input.project_id, userId);
    if (!project) throw new NotFoundError(PROJECT_NOT_FOUND);
    if (project.status === 'completed') throw fieldError('project_id', COMPLETED_PROJECT_READ_ONLY);
    input.subtasks.forEach((subtask, index) => {
      const decision = decideNewSubtask(actorOf(ctx), project.managerId, { status: 'ongoing', dueDate: subtask.due_date }, project.today);
      if (!decision.ok) throwNewSubtaskRefusal(decision, `subtasks.${index}.${decision.field}`);
    });
    await assertAssignable(
      tx,
      companyId,
      input.subtasks.map((subtask, index) => ({ field: `subtasks.${index}.assigned_to_id`, userId: subtask.assigned_to_id })),
    );

    const { id: majorTaskId } = await insertMajorTask(tx, {
      companyId,
      projectId: project.id,
      name: input.name,
      description: input.description,
      dueDate: latestDueDate(input.subtasks.map((subtask) => subtask.due_date)),
      createdById: userId,
    });
    await addSubtasks(
      tx,
      ctx,
      input.subtasks.map((subtask) => ({
        companyId,
        majorTaskId,
        name: subtask.name,
        description: subtask.description,
        assignedToId: subtask.assigned_to_id,
        assignedById: userId,
        dueDate: subtask.due_date,
        status: 'ongoing',
        priority: subtask.priority,
      })),
    );
    return orNotFound(findMajorTask(tx, companyId, majorTaskId), MAJOR_TASK_NOT_FOUND);
  });
}

/** The major task and its project, locked, once the caller may change it: 404, 403, or 400 under a completed project. */
async function lockManagedMajorTask(tx: Tx, ctx: ServiceContext, majorTaskId: number) {
  const parent = await lockMajorTaskProject(tx, ctx.user.companyId, majorTaskId, ctx.user.id);
  if (!parent) throw new NotFoundError(MAJOR_TASK_NOT_FOUND);
  if (!canManageMajorTask(actorOf(ctx), parent)) throw new ForbiddenError(NOT_YOUR_MAJOR_TASK);
  if (parent.projectStatus === 'completed') throw new ValidationError(COMPLETED_PROJECT_READ_ONLY);
  return parent;
}

/** Whether the caller may change or delete this major task, asked before the body is read (and again under the locks when it happens). */
export async function assertMayManageMajorTask(ctx: ServiceContext, rawId: unknown): Promise<void> {
  const parsed = idParams.safeParse({ id: rawId });
  if (parsed.success) await ctx.db.transaction((tx) => lockManagedMajorTask(tx, ctx, parsed.data.id));
}

/**
 * Whether the caller may change this subtask at all, asked before a change's body is read: the
 * company's (404 otherwise), and theirs to approve or assigned to them (403 otherwise), so an
 * outsider learns nothing of what the body should be. What each party may change depends on what
 * it asks (a status, an edit, a pin): that waits for the body, and the write asks all again under its locks.
 */
export async function assertMayChangeSubtask(ctx: ServiceContext, rawId: unknown): Promise<void> {
  const parsed = idParams.safeParse({ id: rawId });
  if (!parsed.success) return;
  const parties = await findSubtaskParties(ctx.db, ctx.user.companyId, parsed.data.id);
  if (!parties) throw new NotFoundError(SUBTASK_NOT_FOUND);
  if (!isSubtaskParty(actorOf(ctx), parties)) throw new ForbiddenError(NOT_YOUR_SUBTASK);
}

export async function updateMajorTask(ctx: ServiceContext, majorTaskId: number, input: UpdateMajorTask): Promise<MajorTask> {
  const { companyId } = ctx.user;
  // The answer is read in the transaction that made the change, as createSubtask's is.
  return ctx.db.transaction(async (tx) => {
    await lockManagedMajorTask(tx, ctx, majorTaskId);
    await updateMajorTaskRow(tx, companyId, majorTaskId, { name: input.name, description: input.description });
    return orNotFound(findMajorTask(tx, companyId, majorTaskId), MAJOR_TASK_NOT_FOUND);
  });
}

export async function deleteMajorTask(ctx: ServiceContext, majorTaskId: number): Promise<void> {
  const { companyId } = ctx.user;
  await ctx.db.transaction(async (tx) => {
    await lockManagedMajorTask(tx, ctx, majorTaskId);
    await deleteMajorTaskRow(tx, companyId, majorTaskId);
  });
}

/** What the subtask list's query asks for, in the caller's terms (`me`, `my_team`). */
function subtaskListFilter(ctx: ServiceContext, query: SubtaskListQuery): SubtaskFilter {
  const { assigned_to: assignedTo } = query;
  return {
    projectStatuses: query.project_status,
    assignedToId: assignedTo === 'me' ? ctx.user.id : assignedTo === 'my_team' ? undefined : assignedTo,
    // Only a manager has a team; nobody is on the team of an admin or a team member.
    assignedToTeamOf: assignedTo === 'my_team' ? ctx.user.id : undefined,
    status: query.status,
  };
}

/**
 * Guard of the subtask list: a user id the query's `assigned_to` names is of the company, else 404
 * before the rest of the query is read, as an id in a path (one statement, only when an id is
 * named; `me`, `my_team` and values that name nothing are left to validation).
 */
export const assigneeFound: Guard = async (request) => {
  const assignedTo = subtaskListQuery.shape.assigned_to.safeParse((request.query as Record<string, unknown> | undefined)?.assigned_to);
  if (assignedTo.success && typeof assignedTo.data === 'number' && !(await userExists(request.ctx.db, request.user.companyId, assignedTo.data))) throw new NotFoundError(USER_NOT_FOUND);
};

/** Every role reads the company's subtasks, filtered as asked: one statement (and the guard's, for another person's). */
export function listSubtasks(ctx: ServiceContext, query: SubtaskListQuery): Promise<Page<Subtask>> {
  return listSubtaskPage(ctx.db, ctx.user.companyId, subtaskListFilter(ctx, query), query);
}

/** Every subtask a filter of the caller matches, for a file named `name` with a sheet titled `title`: read in batches as the file is sent. */
function subtasksExport(ctx: ServiceContext, name: string, title: MessageKey, filter: SubtaskFilter): ListExport<SubtaskExportRow> {
  return {
    name,
    title,
    csv: SUBTASK_CSV_COLUMNS,
    sheet: SUBTASK_SHEET_COLUMNS,
    batches: keysetBatches((last, size) => listSubtaskBatch(ctx.db, ctx.user.companyId, filter, last, size)),
  };
}

/** The same subtasks as the list, every one of them, as a file. */
export const subtaskListExport = (ctx: ServiceContext, query: SubtaskListQuery) => subtasksExport(ctx, 'subtasks', 'Tasks', subtaskListFilter(ctx, query));

export async function createSubtask(ctx: ServiceContext, input: CreateSubtask): Promise<Subtask> {
  const { companyId, id: userId } = ctx.user;
  if (input.major_task !== undefined && input.major_task_id !== undefined && input.major_task !== input.major_task_id) {
    throw fieldError('major_task', MAJOR_TASK_CONFLICT);
  }
  const majorTaskId = (input.major_task_id ?? input.major_task)!;
  // A major task deleted while this waited for it (PostgreSQL checks the reference as the row goes in): gone, as if never there.
  // The answer is read in the transaction that made the subtask: a deletion of its major task right
  // after the commit (the embedded database runs it before a later read) must not turn a made
  // subtask, its history and its assignee's notification into a 404.
  return ctx.db.transaction(async (tx) => {
    const parent = await lockMajorTaskProject(tx, companyId, majorTaskId, userId);
    if (!parent) throw new NotFoundError(MAJOR_TASK_NOT_FOUND);
    if (parent.projectStatus === 'completed') throw fieldError('major_task', COMPLETED_PROJECT_READ_ONLY);
    await assertAssignable(tx, companyId, [{ field: 'assigned_to_id', userId: input.assigned_to_id }]);

    const decision = decideNewSubtask(actorOf(ctx), parent.projectManagerId, { status: input.status, dueDate: input.due_date }, parent.today);
    if (!decision.ok) throwNewSubtaskRefusal(decision, decision.field);
    // A subtask created in another status is that status change made by the project's manager.
    const timestamps = statusTimestamps(input.status === 'ongoing' ? undefined : { from: 'ongoing', to: input.status }, new Date());
    // Pinned as it is made, by whoever may pin it once made: a pin that cannot be placed makes no subtask.
    if (input.pin) {
      const parties = { status: input.status, assignedToId: input.assigned_to_id, assignedById: userId, projectManagerId: parent.projectManagerId, projectStatus: parent.projectStatus };
      if (!canMoveSubtaskPin(actorOf(ctx), parties)) throw new ForbiddenError(PIN_NEEDS_APPROVER);
    }
    const pin = input.pin ? await pinValues(tx, ctx, parent.projectId, input.pin) : {};

    const [created] = await addSubtasks(tx, ctx, [
      {
        companyId,
        majorTaskId,
        name: input.name,
        description: input.description,
        assignedToId: input.assigned_to_id,
        assignedById: userId,
        dueDate: input.due_date,
        status: input.status,
        priority: input.priority,
        ...timestamps,
        ...pin,
      },
    ]);
    await refreshMajorTaskDueDate(tx, companyId, majorTaskId);
    return orNotFound(findSubtask(tx, companyId, created!.id), SUBTASK_NOT_FOUND);
  }).catch((error: unknown) => {
    throw isForeignKeyViolation(error, SUBTASK_MAJOR_TASK_REFERENCE) ? new NotFoundError(MAJOR_TASK_NOT_FOUND) : error;
  });
}

/** The reference from a subtask to its major task, as PostgreSQL names it. */
const SUBTASK_MAJOR_TASK_REFERENCE = 'subtasks_major_task_id_major_tasks_id_fk';

/** Where a pin goes, once its sheet is the latest version of one of the subtask's project's sheets (ids in bodies are tenant data). */
async function pinValues(tx: Tx, ctx: ServiceContext, projectId: number, pin: UpdateSubtask['pin']) {
  if (!pin) return { pinSheetId: null, pinX: null, pinY: null };
  const found = await findSheetAccess(tx, ctx.user.companyId, pin.sheet_id, ctx.user.id, 'and the sheet');
  if (!found || found.sheet.projectId !== projectId) throw fieldError('pin.sheet_id', PIN_SHEET_OF_ANOTHER_PROJECT);
  if (!found.sheet.isLatest) throw fieldError('pin.sheet_id', SHEET_NOT_LATEST);
  return { pinSheetId: pin.sheet_id, pinX: pin.x, pinY: pin.y };
}

/** The caller decided on a subtask another status or assignee than it has now: two managers approving and declining at once, a send racing a reassignment. */
const changedMeanwhile = (current: { status: string; assignedToId: number | null }, input: UpdateSubtask) =>
  (input.expected_status !== undefined && input.expected_status !== current.status) ||
  (input.expected_assigned_to_id !== undefined && input.expected_assigned_to_id !== current.assignedToId);

export async function updateSubtask(ctx: ServiceContext, subtaskId: number, input: UpdateSubtask): Promise<Subtask> {
  const { companyId } = ctx.user;
  // The answer is read in the transaction that made the change, as createSubtask's is.
  return ctx.db.transaction(async (tx) => {
    const parent = await lockSubtaskProject(tx, companyId, subtaskId);
    const current = parent && (await lockSubtask(tx, companyId, subtaskId));
    if (!parent || !current) throw new NotFoundError(SUBTASK_NOT_FOUND);

    const state = { ...current, projectManagerId: parent.projectManagerId, projectStatus: parent.projectStatus };
    const decision = decideSubtaskEdit(actorOf(ctx), state, input);
    if (decision.ok && changedMeanwhile(current, input)) throw new ConflictError(SUBTASK_CHANGED_MEANWHILE);
    if (!decision.ok) throwRefusal(decision);

    const newAssigneeId = input.assigned_to_id !== undefined && input.assigned_to_id !== current.assignedToId ? input.assigned_to_id : undefined;
    const pin = input.pin === undefined ? {} : await pinValues(tx, ctx, parent.projectId, input.pin);
    if (newAssigneeId !== undefined) await assertAssignable(tx, companyId, [{ field: 'assigned_to_id', userId: newAssigneeId }]);
    const people = newAssigneeId === undefined ? new Map() : await findPeople(tx, companyId, [newAssigneeId, ...(current.assignedToId === null ? [] : [current.assignedToId])]);

    await writeSubtaskChange(tx, ctx, {
      subtaskId,
      statusChange: decision.statusChange,
      newAssigneeId,
      formerAssigneeId: current.assignedToId,
      edits: editedFields(current, input, people),
      comment: input.comment,
      values: {
        name: input.name,
        description: input.description,
        priority: input.priority,
        dueDate: input.due_date,
        assignedToId: input.assigned_to_id,
        status: input.status,
        ...statusTimestamps(decision.statusChange, new Date()),
        ...pin,
      },
    });
    if (input.due_date !== undefined && input.due_date !== current.dueDate) await refreshMajorTaskDueDate(tx, companyId, current.majorTaskId);
    return orNotFound(findSubtask(tx, companyId, subtaskId), SUBTASK_NOT_FOUND);
  });
}


export function listPendingApprovals(ctx: ServiceContext, page: PageRequest): Promise<Page<Subtask>> {
  return listSubtaskPage(ctx.db, ctx.user.companyId, pendingApprovalsFilter(ctx.user), page);
}

export const pendingApprovalsExport = (ctx: ServiceContext) => subtasksExport(ctx, 'pending-approvals', 'Pending Approvals', pendingApprovalsFilter(ctx.user));


export function listTasksDueToday(ctx: ServiceContext, page: PageRequest): Promise<Page<Subtask>> {
  return listSubtaskPage(ctx.db, ctx.user.companyId, tasksDueTodayFilter(ctx.user), page);
}

export const tasksDueTodayExport = (ctx: ServiceContext) => subtasksExport(ctx, 'tasks-due-today', 'Due today', tasksDueTodayFilter(ctx.user));
