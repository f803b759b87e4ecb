import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { ProjectStatus, SheetPin, SheetStatus } from '@siteboard/shared';
import { enqueueJob, type DbOrTx } from '../../platform';
import { projects } from '../../schema/projects';
import { sheets } from '../../schema/sheets';
import { subtasks } from '../../schema/tasks';
import { users } from '../../schema/users';
import { isoTimestamp, personJson } from '../../lib/json-sql';
import { matchingRowCount, toPage, type Page } from '../../lib/lists';

/** A sheet's row as the service reads it (its files are on disk, never here). */
const sheetColumns = {
  id: sheets.id,
  companyId: sheets.companyId,
  projectId: sheets.projectId,
  versionGroupId: sql<number>`coalesce(${sheets.versionGroupId}, ${sheets.id})`.mapWith(Number),
  version: sheets.version,
  name: sheets.name,
  pageNumber: sheets.pageNumber,
  status: sheets.status,
  failure: sheets.failure,
  source: sheets.source,
  sourcePath: sheets.sourcePath,
  width: sheets.width,
  height: sheets.height,
  maxLevel: sheets.maxLevel,
  createdAt: isoTimestamp(sheets.createdAt).mapWith(String),
  isLatest: sql<boolean>`not exists (select 1 from sheets newer where newer.version_group_id = coalesce(sheets.version_group_id, sheets.id) and newer.version > sheets.version)`,
};

export interface SheetRow {
  id: number;
  companyId: number;
  projectId: number;
  versionGroupId: number;
  version: number;
  name: string;
  pageNumber: number;
  status: SheetStatus;
  failure: string | null;
  source: 'pdf' | 'image';
  sourcePath: string | null;
  width: number | null;
  height: number | null;
  maxLevel: number | null;
  createdAt: string;
  isLatest: boolean;
}

/** What the sheet rules need about a project and the caller. */
export interface ProjectAccess {
  projectId: number;
  projectStatus: ProjectStatus;
  projectManagerId: number | null;
  hasWork: boolean;
}

const accessColumns = (userId: number) => ({
  projectId: projects.id,
  projectStatus: projects.status,
  projectManagerId: projects.managerId,
  // Written out whole: a statement on one table leaves drizzle's column names unqualified.
  hasWork: sql<boolean>`exists (select 1 from subtasks work join major_tasks work_task on work_task.id = work.major_task_id
    where work.company_id = projects.company_id and work.assigned_to_id = ${userId} and work_task.project_id = projects.id)`,
});

/** The project of the company with the caller's part in it; `lock`: shared until the transaction ends (it cannot be completed meanwhile). */
export async function findProjectAccess(db: DbOrTx, companyId: number, projectId: number, userId: number, lock = false): Promise<ProjectAccess | undefined> {
  const query = db
    .select(accessColumns(userId))
    .from(projects)
    .where(and(eq(projects.companyId, companyId), eq(projects.id, projectId)))
    .$dynamic();
  const [row] = lock ? await query.for('share', { of: projects }) : await query;
  return row;
}

/** A sheet of the company with its project's access for the caller: one statement. */
export async function findSheetAccess(db: DbOrTx, companyId: number, sheetId: number, userId: number, lock: boolean | 'and the sheet' = false): Promise<{ sheet: SheetRow; access: ProjectAccess } | undefined> {
  const query = db
    .select({ sheet: sheetColumns, access: accessColumns(userId) })
    .from(sheets)
    .innerJoin(projects, eq(projects.id, sheets.projectId))
    .where(and(eq(sheets.companyId, companyId), eq(sheets.id, sheetId)))
    .$dynamic();
  // The project share-locked; 'and the sheet' also the sheet, for a pin: placed while the sheet is
  // deleted, it waits for the delete and finds it gone. (Not for a change of the sheet itself: two
  // such changes would each hold the row shared and wait for the other.)
  const [row] = lock ? await query.for('share', { of: lock === 'and the sheet' ? [projects, sheets] : projects }) : await query;
  return row as { sheet: SheetRow; access: ProjectAccess } | undefined;
}

/** A page of the latest version of each of the project's sheets, in upload order (then page order), with how many there are. */
export async function listLatestSheets(db: DbOrTx, companyId: number, projectId: number, page: { limit: number; offset?: number }): Promise<Page<SheetRow>> {
  const latest = and(eq(sheets.companyId, companyId), eq(sheets.projectId, projectId), sheetColumns.isLatest);
  const rows = await db
    .select({ ...sheetColumns, total: matchingRowCount() })
    .from(sheets)
    .where(latest)
    .orderBy(asc(sql`coalesce(${sheets.versionGroupId}, ${sheets.id})`))
    .limit(page.limit)
    .offset(page.offset ?? 0);
  return toPage(rows, page, ({ total: _, ...row }) => row as SheetRow, async () => (await db.select({ count: sql<number>`count(*)`.mapWith(Number) }).from(sheets).where(latest))[0]!.count);
}

/** Every version of a sheet, oldest first. */
export async function listVersions(db: DbOrTx, companyId: number, versionGroupId: number) {
  return db
    .select({ id: sheets.id, version: sheets.version, status: sheets.status, created_at: isoTimestamp(sheets.createdAt).mapWith(String) })
    .from(sheets)
    .where(and(eq(sheets.companyId, companyId), eq(sheets.versionGroupId, versionGroupId)))
    .orderBy(asc(sheets.version));
}

/**
 * Locks a sheet's group for a change of it (a new version, a new name, its removal) by its first
 * version's row, before anything else of the change: every change of a group takes its locks in
 * the same order, so two of them wait for each other and never deadlock. False: no such group.
 */
async function lockSheetGroup(tx: DbOrTx, companyId: number, versionGroupId: number): Promise<boolean> {
  const [head] = await tx
    .select({ id: sheets.id })
    .from(sheets)
    .where(and(eq(sheets.companyId, companyId), eq(sheets.id, versionGroupId)))
    .for('update');
  return head !== undefined;
}

/**
 * The latest version of a sheet's group, with the group's first version locked against a second
 * new version at the same moment. The lock is on that first row, which every new version of the
 * group waits for, and the latest is read by a statement of its own after it: locking the latest
 * row itself let a waiting upload, on PostgreSQL, get that same row back once the other committed
 * and number its version the same.
 */
export async function lockLatestVersion(tx: DbOrTx, companyId: number, versionGroupId: number): Promise<SheetRow | undefined> {
  if (!(await lockSheetGroup(tx, companyId, versionGroupId))) return undefined;
  const [row] = await tx
    .select(sheetColumns)
    .from(sheets)
    .where(and(eq(sheets.companyId, companyId), eq(sheets.versionGroupId, versionGroupId)))
    .orderBy(desc(sheets.version))
    .limit(1);
  return row as SheetRow | undefined;
}

export interface NewSheet {
  companyId: number;
  projectId: number;
  versionGroupId?: number;
  version?: number;
  name: string;
  pageNumber: number;
  source: 'pdf' | 'image';
  sourcePath: string;
  createdById: number;
}

/** Inserts sheets; a first version is the head of its own group. */
export async function insertSheets(tx: DbOrTx, rows: NewSheet[]): Promise<number[]> {
  const inserted = await tx.insert(sheets).values(rows).returning({ id: sheets.id });
  const ids = inserted.map((row) => row.id);
  await tx
    .update(sheets)
    .set({ versionGroupId: sql`${sheets.id}` })
    .where(and(inArray(sheets.id, ids), sql`${sheets.versionGroupId} is null`));
  return ids;
}

export async function findSheets(db: DbOrTx, companyId: number, ids: number[]): Promise<SheetRow[]> {
  const rows = await db
    .select(sheetColumns)
    .from(sheets)
    .where(and(eq(sheets.companyId, companyId), inArray(sheets.id, ids)))
    .orderBy(asc(sheets.id));
  return rows as SheetRow[];
}

export async function renameSheetGroup(tx: DbOrTx, companyId: number, versionGroupId: number, name: string) {
  await lockSheetGroup(tx, companyId, versionGroupId);
  await tx
    .update(sheets)
    .set({ name })
    .where(and(eq(sheets.companyId, companyId), eq(sheets.versionGroupId, versionGroupId)));
}

/** Removes every version of a sheet with its pins; answers the removed ids (their files go after commit). */
export async function deleteSheetGroup(tx: DbOrTx, companyId: number, versionGroupId: number): Promise<{ id: number; sourcePath: string | null }[]> {
  await lockSheetGroup(tx, companyId, versionGroupId);
  const group = sql`(select id from ${sheets} where company_id = ${companyId} and version_group_id = ${versionGroupId})`;
  await tx
    .update(subtasks)
    .set({ pinSheetId: null, pinX: null, pinY: null })
    .where(and(eq(subtasks.companyId, companyId), sql`${subtasks.pinSheetId} in ${group}`));
  const removed = await tx
    .delete(sheets)
    .where(and(eq(sheets.companyId, companyId), eq(sheets.versionGroupId, versionGroupId)))
    .returning({ id: sheets.id, sourcePath: sheets.sourcePath });
  return removed;
}

/** A new version takes over the pins of the one it replaces, at the same relative place. */
export async function movePins(tx: DbOrTx, companyId: number, fromSheetId: number, toSheetId: number) {
  await tx
    .update(subtasks)
    .set({ pinSheetId: toSheetId })
    .where(and(eq(subtasks.companyId, companyId), eq(subtasks.pinSheetId, fromSheetId)));
}

/** The sheet's pins, each with its subtask's status, name, assignee, due date and assigner: one statement. */
export async function listPins(db: DbOrTx, companyId: number, sheetId: number): Promise<(Omit<SheetPin, 'may_move'> & { assignedById: number | null })[]> {
  return db
    .select({
      subtask_id: subtasks.id,
      x: subtasks.pinX,
      y: subtasks.pinY,
      status: subtasks.status,
      name: subtasks.name,
      assigned_to: personJson(users.id, users.email, users.fullName),
      due_date: subtasks.dueDate,
      closed_unfinished_at: isoTimestamp(subtasks.closedUnfinishedAt),
      assignedById: subtasks.assignedById,
    })
    .from(subtasks)
    .leftJoin(users, eq(users.id, subtasks.assignedToId))
    .where(and(eq(subtasks.companyId, companyId), eq(subtasks.pinSheetId, sheetId)))
    .orderBy(asc(subtasks.id)) as Promise<(Omit<SheetPin, 'may_move'> & { assignedById: number | null })[]>;
}

// The rendering job's reads and writes: the job carries its company, every statement is scoped to it.

export async function findSheetToRender(db: DbOrTx, companyId: number, sheetId: number): Promise<SheetRow | undefined> {
  const [row] = await db
    .select(sheetColumns)
    .from(sheets)
    .where(and(eq(sheets.companyId, companyId), eq(sheets.id, sheetId)));
  return row as SheetRow | undefined;
}

/** Records how the rendering ended; false when the sheet was deleted meanwhile. */
export async function finishSheet(db: DbOrTx, companyId: number, sheetId: number, values: { status: 'ready'; width: number; height: number; maxLevel: number } | { status: 'failed'; failure: string }) {
  const updated = await db
    .update(sheets)
    .set({ ...values, sourcePath: null })
    .where(and(eq(sheets.companyId, companyId), eq(sheets.id, sheetId)))
    .returning({ id: sheets.id });
  return updated.length > 0;
}

/** Where removing deleted sheets' files waits: a persistent job, queued in the deletion's own transaction. */
export const SHEET_FILES_QUEUE = 'sheets.files';
/** The sheets whose files go: each one's folder, and its upload unless another sheet still renders from it. */
export interface SheetFilesJob {
  sheets: { id: number; sourcePath: string | null }[];
}

/**
 * Queues the removal of deleted sheets' files in the transaction that deleted them: it happens if
 * and only if the deletion committed (the outbox; a crash in between leaves nothing behind), and
 * only for sheets this database deleted, whatever else lies in the folder.
 */
export async function queueSheetFileRemoval(tx: DbOrTx, sheets: SheetFilesJob['sheets']): Promise<void> {
  if (sheets.length > 0) await enqueueJob(tx, SHEET_FILES_QUEUE, { sheets } satisfies SheetFilesJob, { companyId: null });
}

/** A project's sheets and their uploads, read before the project (and, by cascade, they) are deleted. */
export async function listProjectSheetFiles(db: DbOrTx, companyId: number, projectId: number): Promise<SheetFilesJob['sheets']> {
  return db.select({ id: sheets.id, sourcePath: sheets.sourcePath }).from(sheets).where(and(eq(sheets.companyId, companyId), eq(sheets.projectId, projectId)));
}

/** Whether another sheet still renders from this uploaded file. */
export async function isSourceInUse(db: DbOrTx, sourcePath: string): Promise<boolean> {
  const [row] = await db.select({ id: sheets.id }).from(sheets).where(eq(sheets.sourcePath, sourcePath)).limit(1);
  return row !== undefined;
}
