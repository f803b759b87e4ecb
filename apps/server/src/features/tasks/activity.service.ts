import { decideRecordAddition, idParams, type ActivityEntry, type Attachment, type SubtaskParties, type SubtaskPhoto } from '@siteboard/shared';
import { type DbOrTx, type Tx, type ServiceContext, ForbiddenError, NotFoundError, ValidationError } from '../../platform';
import { events } from '../../lib/events';
import type { Page } from '../../lib/lists';
import { processPhoto } from '../../lib/images';
import { attachmentUrls, findActivityEntry, findAttachmentBytes, insertActivity, insertAttachment, listActivity, listPhotosOf } from './activity.queries';
import { findSubtaskParties, lockSubtask, lockSubtaskProject, subtaskExists } from './tasks.queries';
import { SUBTASK_NOT_FOUND } from './tasks.rules';

export const ATTACHMENT_NOT_FOUND = 'Photo not found.';

/** The subtask's parties, locked (project for share, subtask for update) until the transaction ends; 404 when it is not the company's. */
async function lockParties(tx: DbOrTx, companyId: number, subtaskId: number): Promise<SubtaskParties> {
  const parent = await lockSubtaskProject(tx, companyId, subtaskId);
  const current = parent && (await lockSubtask(tx, companyId, subtaskId));
  if (!parent || !current) throw new NotFoundError(SUBTASK_NOT_FOUND);
  return { status: current.status, assignedToId: current.assignedToId, assignedById: current.assignedById, projectManagerId: parent.projectManagerId, projectStatus: parent.projectStatus };
}

function assertMayAdd(ctx: ServiceContext, parties: SubtaskParties) {
  const decision = decideRecordAddition(ctx.user, parties);
  if (!decision.ok) throw decision.error === 'forbidden' ? new ForbiddenError(decision.message) : new ValidationError(decision.message);
}

/** Everything that happened to a subtask of the caller's company, oldest first. */
export async function getSubtaskActivity(ctx: ServiceContext, subtaskId: number, page: { before?: number; limit: number }): Promise<Page<ActivityEntry>> {
  if (!(await subtaskExists(ctx.db, ctx.user.companyId, subtaskId))) throw new NotFoundError(SUBTASK_NOT_FOUND);
  return listActivity(ctx.db, ctx.user.companyId, subtaskId, page);
}

/**
 * Whether the caller may add to this subtask's record at all, asked before the request's body is
 * read or validated (an outsider learns nothing of what the body should be). The id is the raw
 * path parameter: one that names no subtask is left to validation and the 404 that follows. One
 * statement without locks: the write asks again under its locks (a project completed in between).
 */
export async function assertMayAddToRecord(ctx: ServiceContext, rawSubtaskId: unknown): Promise<void> {
  const parsed = idParams.safeParse({ id: rawSubtaskId });
  if (!parsed.success) return;
  const parties = await findSubtaskParties(ctx.db, ctx.user.companyId, parsed.data.id);
  if (!parties) throw new NotFoundError(SUBTASK_NOT_FOUND);
  assertMayAdd(ctx, parties);
}

/** A comment by one of the subtask's parties; the others hear of it (task_comment) in the same transaction. */
export async function addComment(ctx: ServiceContext, subtaskId: number, text: string): Promise<ActivityEntry> {
  const { companyId, id: actorId } = ctx.user;
  // The answer is read in the transaction that wrote it: after the commit, a deletion of the
  // subtask in between would take the comment with it and leave nothing to answer.
  return ctx.db.transaction(async (tx: Tx) => {
    assertMayAdd(ctx, await lockParties(tx, companyId, subtaskId));
    const [id] = await insertActivity(tx, [{ companyId, subtaskId, actorId, type: 'comment', text, doneAt: ctx.doneAt }]);
    await events.emit(tx, 'subtask.commented', { actor: { id: actorId, companyId, email: ctx.user.email }, subtaskId, text });
    return (await findActivityEntry(tx, companyId, id!))!;
  });
}

/**
 * A photo on a subtask's record (who may add it was asked before the upload was looked at). The
 * image is checked by its bytes and re-encoded (in the image queue) outside the transaction; the photo and its history
 * entry are written together, after checking again under the locks (the project may have been
 * completed meanwhile). Nothing is written for a refused or broken upload.
 */
export async function addPhoto(ctx: ServiceContext, subtaskId: number, file: string, signal?: AbortSignal): Promise<Attachment> {
  const { companyId, id: actorId } = ctx.user;
  const photo = await processPhoto(file, signal);
  const attachmentId = await ctx.db.transaction(async (tx) => {
    assertMayAdd(ctx, await lockParties(tx, companyId, subtaskId));
    const id = await insertAttachment(
      tx,
      { companyId, subtaskId, uploadedById: actorId, contentType: photo.contentType, size: photo.image.length, width: photo.width, height: photo.height },
      photo,
    );
    await insertActivity(tx, [{ companyId, subtaskId, actorId, type: 'attachment', attachmentId: id, doneAt: ctx.doneAt }]);
    return id;
  });
  return { id: attachmentId, content_type: photo.contentType, size: photo.image.length, width: photo.width, height: photo.height, ...attachmentUrls(attachmentId) };
}

/** The photos on these subtasks of the caller's company (others' ids find nothing). */
export function listPhotos(ctx: ServiceContext, subtaskIds: number[]): Promise<SubtaskPhoto[]> {
  return listPhotosOf(ctx.db, ctx.user.companyId, subtaskIds);
}

/** A photo of the caller's company, or its thumbnail. */
export async function getPhoto(db: ServiceContext['db'], companyId: number, attachmentId: number, which: 'image' | 'thumbnail') {
  const found = await findAttachmentBytes(db, companyId, attachmentId, which);
  if (!found) throw new NotFoundError(ATTACHMENT_NOT_FOUND);
  return found;
}
