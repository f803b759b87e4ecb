import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import {
  COMPLETED_PROJECT_SHEETS_READ_ONLY,
  PROJECT_NOT_FOUND,
  SHEET_FILE_MISSING,
  SHEET_IMAGE_MAX_BYTES,
  SHEET_NOT_A_DRAWING,
  SHEET_NOT_FOUND,
  SHEET_TOO_LARGE,
  decideSheetKeeping,
  decideSheetReading,
  idParams,
  isStorableText,
  type Sheet,
  type SheetDetail,
  type SheetParties,
  canMoveSubtaskPin,
  type SheetPin,
  type sheetListQuery,
  type updateSheetInput,
  UNSTORABLE_TEXT,
} from '@siteboard/shared';
import type { Page } from '../../lib/lists';
import { AppError, enqueueJobs, ForbiddenError, NotFoundError, ValidationError, type DbOrTx, type ServiceContext, type Tx, type UploadedFile } from '../../platform';
import {
  deleteSheetGroup,
  findProjectAccess,
  findSheetAccess,
  findSheets,
  insertSheets,
  isSourceInUse,
  listLatestSheets,
  listPins,
  listVersions,
  lockLatestVersion,
  movePins,
  queueSheetFileRemoval,
  renameSheetGroup,
  type NewSheet,
  type ProjectAccess,
  type SheetRow,
} from './sheets.queries';
import { onRenderProcess } from './sheets.render-client';
import { DrawingRefusal, TILE_SIZE, type Inspection, type ScannedPage } from './sheets.render-protocol';

export const RENDER_QUEUE = 'sheets.render';
/** A page's rendering job: its sheet, and whether the upload's inspection found the page a scan (decision record 092). */
export type RenderJob = { sheetId: number; scan?: ScannedPage | null };

/** Where a sheet's files are: its tiles and preview in `<dir>/<id>/`, uploads still rendering in `<dir>/sources/`. */
export const sheetFolder = (sheetsDir: string, sheetId: number) => path.join(sheetsDir, String(sheetId));

type UpdateSheet = z.output<typeof updateSheetInput>;

const partiesOf = (ctx: ServiceContext, access: ProjectAccess): SheetParties => ({
  role: ctx.user.role,
  userId: ctx.user.id,
  projectManagerId: access.projectManagerId,
  projectStatus: access.projectStatus,
  hasWork: access.hasWork,
});

function assertAllowed(decision: ReturnType<typeof decideSheetReading>) {
  if (!decision.ok) throw decision.error === 'forbidden' ? new ForbiddenError(decision.message) : new ValidationError(decision.message);
}

export const sheetAnswer = (row: SheetRow): Sheet => ({
  id: row.id,
  project_id: row.projectId,
  name: row.name,
  page_number: row.pageNumber,
  version: row.version,
  status: row.status,
  failure: row.failure,
  width: row.width,
  height: row.height,
  created_at: row.createdAt,
});

/** A sheet the caller may read (admins, the project's manager, who has work in it), or 404/403. */
async function readableSheet(ctx: ServiceContext, sheetId: number) {
  const found = await findSheetAccess(ctx.db, ctx.user.companyId, sheetId, ctx.user.id);
  if (!found) throw new NotFoundError(SHEET_NOT_FOUND);
  assertAllowed(decideSheetReading(partiesOf(ctx, found.access)));
  return found.sheet;
}

export async function listSheets(ctx: ServiceContext, projectId: number, query: z.output<typeof sheetListQuery>): Promise<Page<Sheet>> {
  const access = await findProjectAccess(ctx.db, ctx.user.companyId, projectId, ctx.user.id);
  if (!access) throw new NotFoundError(PROJECT_NOT_FOUND);
  assertAllowed(decideSheetReading(partiesOf(ctx, access)));
  const page = await listLatestSheets(ctx.db, ctx.user.companyId, projectId, query);
  return { total: page.total, items: page.items.map(sheetAnswer) };
}

export async function getSheet(ctx: ServiceContext, sheetId: number): Promise<SheetDetail> {
  const row = await readableSheet(ctx, sheetId);
  const ready = row.status === 'ready';
  return {
    ...sheetAnswer(row),
    preview_url: ready ? `/api/sheets/${row.id}/preview/` : null,
    tile_size: TILE_SIZE,
    max_level: ready ? row.maxLevel : null,
    tile_url_template: ready ? `/api/sheets/${row.id}/tiles/{level}/{col}_{row}.jpeg` : null,
    versions: await listVersions(ctx.db, ctx.user.companyId, row.versionGroupId),
  };
}

export async function listSheetPins(ctx: ServiceContext, sheetId: number): Promise<SheetPin[]> {
  const found = await findSheetAccess(ctx.db, ctx.user.companyId, sheetId, ctx.user.id);
  if (!found) throw new NotFoundError(SHEET_NOT_FOUND);
  assertAllowed(decideSheetReading(partiesOf(ctx, found.access)));
  const actor = { id: ctx.user.id, role: ctx.user.role };
  const { projectManagerId, projectStatus } = found.access;
  // An old version's pins have moved to the latest: nothing on it is moved any more.
  return (await listPins(ctx.db, ctx.user.companyId, sheetId)).map(({ assignedById, ...pin }) => ({
    ...pin,
    may_move: found.sheet.isLatest && canMoveSubtaskPin(actor, { status: pin.status, assignedToId: pin.assigned_to?.id ?? null, assignedById, projectManagerId, projectStatus }),
  }));
}

/** A file of a ready sheet the caller may read: its tile or its preview, or 404. */
export async function sheetFile(ctx: ServiceContext, sheetsDir: string, sheetId: number, file: { level: number; tile: string } | 'preview'): Promise<Buffer> {
  const row = await readableSheet(ctx, sheetId);
  if (row.status !== 'ready') throw new NotFoundError();
  const relative = file === 'preview' ? 'preview.jpeg' : path.join('tiles_files', String(file.level), file.tile);
  try {
    return await fs.promises.readFile(path.join(sheetFolder(sheetsDir, row.id), relative));
  } catch {
    throw new NotFoundError();
  }
}

/** The type the bytes announce (never the file's name): a PDF, or an image the tiler reads. */
async function drawingType(file: UploadedFile): Promise<'pdf' | 'image'> {
  const { fileTypeFromFile } = await import('file-type');
  const type = await fileTypeFromFile(file.path);
  if (type?.ext === 'pdf') return 'pdf';
  if (type && ['jpg', 'png', 'webp'].includes(type.ext)) {
    if (file.bytes > SHEET_IMAGE_MAX_BYTES) throw new AppError(413, SHEET_TOO_LARGE, { file: [SHEET_TOO_LARGE] });
    return 'image';
  }
  throw new ValidationError(SHEET_NOT_A_DRAWING, { file: [SHEET_NOT_A_DRAWING] });
}

/**
 * Checks an upload (its real type, its pages, an image's claimed size) on a rendering thread and
 * keeps it under the data directory until its sheets are rendered: the pages to make, or a 4xx.
 */
async function acceptUpload(sheetsDir: string, file: UploadedFile | undefined) {
  if (!file || file.bytes === 0) throw new ValidationError(SHEET_FILE_MISSING, { file: [SHEET_FILE_MISSING] });
  const type = await drawingType(file);
  let inspection: Inspection;
  try {
    inspection = await onRenderProcess<Inspection>({ kind: 'inspect', source: file.path, type });
  } catch (error) {
    if (error instanceof DrawingRefusal) throw new ValidationError(error.message, { file: [error.message] });
    throw error;
  }
  const sources = path.join(sheetsDir, 'sources');
  await fs.promises.mkdir(sources, { recursive: true });
  const sourcePath = path.join(sources, `${randomUUID()}.${type === 'pdf' ? 'pdf' : 'img'}`);
  await fs.promises.copyFile(file.path, sourcePath);
  return { type, ...inspection, sourcePath };
}

/** The base of a sheet's default name: the file's name without its extension, and without what no text may hold (nobody typed it). */
const baseName = (filename: string) =>
  Array.from(path.basename(filename))
    .filter(isStorableText)
    .join('')
    .replace(/\s+/g, ' ')
    .replace(/\.[^.]+$/, '')
    .trim()
    .slice(0, 180) || 'Drawing';

/**
 * A name typed with the upload (a form field, outside the route's schema): refused when it holds
 * what no text may (a NUL is a 500 in PostgreSQL), before the file is looked at; a long one is
 * cut to leave room for the page number, as before.
 */
function typedName(name: string | undefined): string | undefined {
  if (!name?.trim()) return undefined;
  if (!isStorableText(name)) throw new ValidationError(UNSTORABLE_TEXT, { name: [UNSTORABLE_TEXT] });
  return name.trim().slice(0, 180);
}

/**
 * Inserts the sheets (`write` answers each one's id and page) and their rendering jobs, each with
 * its page's scan as the inspection found it, in one transaction; the upload is removed if it fails.
 * Answers the sheets as that transaction wrote them: a deletion right after the commit (the project,
 * the sheet a version was added to) does not turn a saved upload into an empty list or a 404.
 */
async function createSheets(ctx: ServiceContext, upload: { sourcePath: string; scans: Inspection['scans'] }, write: (tx: Tx) => Promise<{ id: number; page: number }[]>) {
  try {
    return await ctx.db.transaction(async (tx) => {
      const made = await write(tx);
      // One statement for every page's job: a 200-page set wrote 200 inserts in this transaction.
      await enqueueJobs(
        tx,
        RENDER_QUEUE,
        made.map(({ id, page }) => ({ payload: { sheetId: id, scan: upload.scans[page - 1] ?? null } satisfies RenderJob, companyId: ctx.user.companyId })),
      );
      const ids = made.map(({ id }) => id);
      return (await findSheets(tx, ctx.user.companyId, ids)).map(sheetAnswer);
    });
  } catch (error) {
    await fs.promises.rm(upload.sourcePath, { force: true });
    throw error;
  }
}

/** A project's manager or an admin uploads a drawing: one sheet per PDF page (or the image), each rendered by a job. */
export async function uploadSheets(ctx: ServiceContext, sheetsDir: string, projectId: number, file: UploadedFile | undefined, name: string | undefined): Promise<Sheet[]> {
  const { companyId } = ctx.user;
  const access = await findProjectAccess(ctx.db, companyId, projectId, ctx.user.id);
  if (!access) throw new NotFoundError(PROJECT_NOT_FOUND);
  assertAllowed(decideSheetKeeping(partiesOf(ctx, access)));
  const typed = typedName(name);
  const upload = await acceptUpload(sheetsDir, file);
  const base = typed ?? baseName(file!.filename);
  return createSheets(ctx, upload, async (tx) => {
    const locked = await findProjectAccess(tx, companyId, projectId, ctx.user.id, true);
    if (!locked) throw new NotFoundError(PROJECT_NOT_FOUND);
    if (locked.projectStatus === 'completed') throw new ValidationError(COMPLETED_PROJECT_SHEETS_READ_ONLY);
    const rows: NewSheet[] = Array.from({ length: upload.pages }, (_, index) => ({
      companyId,
      projectId,
      name: upload.pages === 1 ? base : `${base} – ${index + 1}`,
      pageNumber: index + 1,
      source: upload.type,
      sourcePath: upload.sourcePath,
      createdById: ctx.user.id,
    }));
    return (await insertSheets(tx, rows)).map((id, index) => ({ id, page: rows[index]!.pageNumber }));
  });
}

/** A keeper's sheet, locked with its project for the change: 404, 403, or 400 under a completed project. */
async function keptSheet(tx: Tx, ctx: ServiceContext, sheetId: number) {
  const found = await findSheetAccess(tx, ctx.user.companyId, sheetId, ctx.user.id, true);
  if (!found) throw new NotFoundError(SHEET_NOT_FOUND);
  assertAllowed(decideSheetKeeping(partiesOf(ctx, found.access)));
  return found.sheet;
}

/**
 * A new version of a sheet: the same page of a plan set (page 1 of a one-page file), rendered as
 * a new sheet; the pins move over at the same relative place, the old versions stay viewable.
 */
export async function uploadVersion(ctx: ServiceContext, sheetsDir: string, sheetId: number, file: UploadedFile | undefined): Promise<Sheet> {
  const { companyId } = ctx.user;
  const found = await findSheetAccess(ctx.db, companyId, sheetId, ctx.user.id);
  if (!found) throw new NotFoundError(SHEET_NOT_FOUND);
  assertAllowed(decideSheetKeeping(partiesOf(ctx, found.access)));
  const upload = await acceptUpload(sheetsDir, file);
  const [created] = await createSheets(ctx, upload, async (tx) => {
    const sheet = await keptSheet(tx, ctx, sheetId);
    const latest = await lockLatestVersion(tx, companyId, sheet.versionGroupId);
    if (!latest) throw new NotFoundError(SHEET_NOT_FOUND);
    const page = upload.pages === 1 ? 1 : Math.min(latest.pageNumber, upload.pages);
    const [id] = await insertSheets(tx, [
      {
        companyId,
        projectId: latest.projectId,
        versionGroupId: latest.versionGroupId,
        version: latest.version + 1,
        name: latest.name,
        pageNumber: page,
        source: upload.type,
        sourcePath: upload.sourcePath,
        createdById: ctx.user.id,
      },
    ]);
    await movePins(tx, companyId, latest.id, id!);
    return [{ id: id!, page }];
  });
  if (!created) throw new NotFoundError(SHEET_NOT_FOUND);
  return created;
}

/** Renames the sheet (every version of it: the list shows one name per sheet). */
export async function renameSheet(ctx: ServiceContext, sheetId: number, input: UpdateSheet): Promise<Sheet> {
  // Read in the transaction that renamed it: a deletion right after the commit does not turn a
  // saved rename into a 404. One that went first (before or as the rename ran) still does.
  return ctx.db.transaction(async (tx) => {
    const sheet = await keptSheet(tx, ctx, sheetId);
    await renameSheetGroup(tx, ctx.user.companyId, sheet.versionGroupId, input.name);
    const [row] = await findSheets(tx, ctx.user.companyId, [sheetId]);
    if (!row) throw new NotFoundError(SHEET_NOT_FOUND);
    return sheetAnswer(row);
  });
}

/**
 * Deletes the sheet with every version and unpins its subtasks; their files go by a job queued in
 * the same transaction (`queueSheetFileRemoval`): if and only if the deletion committed.
 */
export async function deleteSheet(ctx: ServiceContext, sheetId: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const sheet = await keptSheet(tx, ctx, sheetId);
    await queueSheetFileRemoval(tx, await deleteSheetGroup(tx, ctx.user.companyId, sheet.versionGroupId));
  });
}

/** Removes an uploaded file once no sheet renders from it any more. */
export async function removeSourceIfUnused(db: DbOrTx, sourcePath: string): Promise<void> {
  if (!(await isSourceInUse(db, sourcePath))) await fs.promises.rm(sourcePath, { force: true });
}

/**
 * Whether the caller may change the drawings of this project (`project`) or of this sheet's
 * project (`sheet`), asked before an upload's body is looked at: 404, 403 or 400 as the change
 * itself would answer. An id that is no id is left to validation.
 */
export async function assertMayKeep(ctx: ServiceContext, which: 'project' | 'sheet', rawId: unknown): Promise<void> {
  await assertSheetAccess(ctx, which, rawId, decideSheetKeeping);
}

/** Whether the caller may see this project's drawings or this sheet, asked before its query or tile name is validated. */
export async function assertMayRead(ctx: ServiceContext, which: 'project' | 'sheet', rawId: unknown): Promise<void> {
  await assertSheetAccess(ctx, which, rawId, decideSheetReading);
}

async function assertSheetAccess(ctx: ServiceContext, which: 'project' | 'sheet', rawId: unknown, decide: typeof decideSheetReading): Promise<void> {
  const parsed = idParams.safeParse({ id: rawId });
  if (!parsed.success) return;
  const access =
    which === 'project'
      ? await findProjectAccess(ctx.db, ctx.user.companyId, parsed.data.id, ctx.user.id)
      : (await findSheetAccess(ctx.db, ctx.user.companyId, parsed.data.id, ctx.user.id))?.access;
  if (!access) throw new NotFoundError(which === 'project' ? PROJECT_NOT_FOUND : SHEET_NOT_FOUND);
  assertAllowed(decide(partiesOf(ctx, access)));
}
