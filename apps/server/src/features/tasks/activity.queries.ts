import { and, asc, desc, eq, inArray, sql, type AnyColumn, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { MAX_ID, type ActivityEntry, type Attachment, type SubtaskPhoto, type SubtaskStatus } from '@siteboard/shared';
import { type DbOrTx, builtOncePerDatabase } from '../../platform';
import { attachmentData, subtaskActivity, subtaskAttachments } from '../../schema/activity';
import { users } from '../../schema/users';
import { isoTimestamp } from '../../lib/json-sql';
import { matchingRowCount, type Page } from '../../lib/lists';

export interface NewActivity {
  companyId: number;
  subtaskId: number;
  actorId: number | null;
  type: ActivityEntry['type'];
  fromStatus?: SubtaskStatus;
  toStatus?: SubtaskStatus;
  text?: string | null;
  changes?: Record<string, { from: unknown; to: unknown }>;
  attachmentId?: number;
  /** When the person did it, if earlier than its arrival (`ServiceContext.doneAt`, decision record 109). */
  doneAt: Date | undefined;
}

/** Writes history rows in the caller's transaction; answers their ids in order. */
export async function insertActivity(tx: DbOrTx, rows: NewActivity[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await tx.insert(subtaskActivity).values(rows).returning({ id: subtaskActivity.id });
  return inserted.map((row) => row.id);
}

/** Where a photo and its thumbnail are read (with the bearer token). */
export const attachmentUrls = (id: number) => ({ url: `/api/attachments/${id}/`, thumbnail_url: `/api/attachments/${id}/thumbnail/` });

/*
 * An edit that moved the work records its assignees as `{id, email}`, as they were. Their names
 * are read with the entry, by id, from the company's users (those deleted since too), so a rename
 * reaches every old entry and the list stays one statement (decision record 062).
 */
const formerAssignees = alias(users, 'former_assignees');
const nextAssignees = alias(users, 'next_assignees');
const recordedAssignee = (end: 'from' | 'to') => sql`(${subtaskActivity.changes} -> 'assigned_to' -> '${sql.raw(end)}' ->> 'id')::int`;
const assigneeJoin = (people: { id: AnyColumn; companyId: AnyColumn }, end: 'from' | 'to') => and(eq(people.companyId, subtaskActivity.companyId), eq(people.id, recordedAssignee(end)));

/** A history entry's columns: its actor, the assignees an edit names, and its photo's facts (never its bytes). */
const activityColumns = {
  id: subtaskActivity.id,
  type: subtaskActivity.type,
  actorId: users.id,
  actorEmail: users.email,
  actorFullName: users.fullName,
  createdAt: isoTimestamp(subtaskActivity.createdAt),
  doneAt: isoTimestamp(sql`coalesce(${subtaskActivity.doneAt}, ${subtaskActivity.createdAt})`),
  fromStatus: subtaskActivity.fromStatus,
  toStatus: subtaskActivity.toStatus,
  text: subtaskActivity.text,
  changes: subtaskActivity.changes,
  formerAssigneeName: formerAssignees.fullName,
  nextAssigneeName: nextAssignees.fullName,
  attachmentId: subtaskAttachments.id,
  contentType: subtaskAttachments.contentType,
  size: subtaskAttachments.size,
  width: subtaskAttachments.width,
  height: subtaskAttachments.height,
};

/** History entries joined to what they name, each with how many entries its statement matched (before a limit). */
function selectActivity(db: DbOrTx) {
  return db
    .select({ ...activityColumns, total: matchingRowCount() })
    .from(subtaskActivity)
    .leftJoin(users, eq(users.id, subtaskActivity.actorId))
    .leftJoin(formerAssignees, assigneeJoin(formerAssignees, 'from'))
    .leftJoin(nextAssignees, assigneeJoin(nextAssignees, 'to'))
    .leftJoin(subtaskAttachments, eq(subtaskAttachments.id, subtaskActivity.attachmentId));
}

/**
 * A page of a subtask's history: the latest `limit` entries older than `before`, newest first as
 * read (the caller turns them round), each row with how many entries are older than `before` in
 * all. One statement, built once and prepared; the index on (subtask, id) reads only the page.
 */
const activityStatement = builtOncePerDatabase((db) =>
  selectActivity(db)
    .where(
      and(
        eq(subtaskActivity.companyId, sql.placeholder('companyId')),
        eq(subtaskActivity.subtaskId, sql.placeholder('subtaskId')),
        sql`${subtaskActivity.id} < ${sql.placeholder('before')}`,
      ),
    )
    .orderBy(desc(subtaskActivity.id))
    .limit(sql.placeholder('limit'))
    .prepare('list_subtask_activity_page'),
);

type ActivityRow = Awaited<ReturnType<typeof selectActivity>>[number];

export function toActivityEntry(row: ActivityRow): ActivityEntry {
  const entry: ActivityEntry = {
    id: row.id,
    type: row.type,
    actor: row.actorId === null || row.actorEmail === null ? null : { id: row.actorId, email: row.actorEmail, full_name: row.actorFullName },
    created_at: row.createdAt!,
    done_at: row.doneAt!,
  };
  if (row.type === 'status_changed') Object.assign(entry, { from: row.fromStatus, to: row.toStatus, comment: row.text });
  // Closed unfinished or reopened with its project: the status it kept.
  if (row.type === 'closed_unfinished' || row.type === 'reopened') Object.assign(entry, { from: row.fromStatus, to: row.toStatus });
  if (row.type === 'comment') entry.text = row.text ?? '';
  if (row.type === 'edited') entry.changes = namedChanges(row);
  if (row.type === 'attachment' && row.attachmentId !== null) entry.attachment = attachmentOf(row as ActivityRow & { attachmentId: number });
  return entry;
}

/** An edit's changes as recorded, the assignees with their names as they are now (null without one). */
function namedChanges(row: Pick<ActivityRow, 'changes' | 'formerAssigneeName' | 'nextAssigneeName'>): NonNullable<ActivityEntry['changes']> {
  const { assigned_to: assignee, ...changes } = row.changes ?? {};
  if (!assignee) return changes;
  const named = (recorded: unknown, fullName: string | null) => (recorded === null ? null : { ...(recorded as { id: number; email: string }), full_name: fullName });
  return { ...changes, assigned_to: { from: named(assignee.from, row.formerAssigneeName), to: named(assignee.to, row.nextAssigneeName) } };
}

function attachmentOf(row: { attachmentId: number; contentType: string | null; size: number | null; width: number | null; height: number | null }): Attachment {
  return { id: row.attachmentId, content_type: row.contentType!, size: row.size!, width: row.width!, height: row.height!, ...attachmentUrls(row.attachmentId) };
}

/** The latest `limit` entries of a subtask's history older than the entry `before` (all when not given), oldest first, and how many there are in all. */
export async function listActivity(db: DbOrTx, companyId: number, subtaskId: number, page: { before?: number; limit: number }): Promise<Page<ActivityEntry>> {
  const rows = await activityStatement(db).execute({ companyId, subtaskId, before: page.before ?? MAX_ID, limit: page.limit });
  return { items: rows.reverse().map(toActivityEntry), total: rows[0]?.total ?? 0 };
}

/** One history entry of the company, as the timeline shows it. */
export async function findActivityEntry(db: DbOrTx, companyId: number, activityId: number): Promise<ActivityEntry | undefined> {
  const [row] = await selectActivity(db).where(and(eq(subtaskActivity.companyId, companyId), eq(subtaskActivity.id, activityId)));
  return row && toActivityEntry(row);
}

/*
 * Image bytes go to the database as they are: node-postgres sends a Buffer as a binary parameter,
 * to PostgreSQL and to PGlite's socket server alike (decision record 093, amended). They used to
 * cross as base64 text, a string a third larger than the photo in the server's heap on every
 * upload, and took twice as long. They come back as base64 text, which both drivers hand over natively.
 */
export const toBytea = (bytes: Buffer) => sql`${bytes}::bytea`;
export const fromBytea = (column: SQLWrapper) => sql<string>`encode(${column}, 'base64')`;

export async function insertAttachment(
  tx: DbOrTx,
  values: { companyId: number; subtaskId: number; uploadedById: number; contentType: string; size: number; width: number; height: number },
  data: { image: Buffer; thumbnail: Buffer },
): Promise<number> {
  const [row] = await tx.insert(subtaskAttachments).values(values).returning({ id: subtaskAttachments.id });
  await tx.insert(attachmentData).values({ attachmentId: row!.id, image: toBytea(data.image), thumbnail: toBytea(data.thumbnail) });
  return row!.id;
}

/** The facts of the photos on these subtasks of the company, oldest first: one statement, no bytes. */
export async function listPhotosOf(db: DbOrTx, companyId: number, subtaskIds: number[]): Promise<SubtaskPhoto[]> {
  const rows = await db
    .select({ id: subtaskAttachments.id, subtaskId: subtaskAttachments.subtaskId, contentType: subtaskAttachments.contentType, size: subtaskAttachments.size, width: subtaskAttachments.width, height: subtaskAttachments.height })
    .from(subtaskAttachments)
    .where(and(eq(subtaskAttachments.companyId, companyId), inArray(subtaskAttachments.subtaskId, subtaskIds)))
    .orderBy(asc(subtaskAttachments.id));
  return rows.map((row) => ({ subtask_id: row.subtaskId, ...attachmentOf({ ...row, attachmentId: row.id }) }));
}

/** A photo of the company (or its thumbnail, always a JPEG) with its type: the only statement that reads the bytes. */
export async function findAttachmentBytes(db: DbOrTx, companyId: number, attachmentId: number, which: 'image' | 'thumbnail') {
  const [row] = await db
    .select({ contentType: subtaskAttachments.contentType, bytes: fromBytea(which === 'image' ? attachmentData.image : attachmentData.thumbnail) })
    .from(subtaskAttachments)
    .innerJoin(attachmentData, eq(attachmentData.attachmentId, subtaskAttachments.id))
    .where(and(eq(subtaskAttachments.companyId, companyId), eq(subtaskAttachments.id, attachmentId)));
  return row && { contentType: which === 'image' ? row.contentType : 'image/jpeg', bytes: Buffer.from(row.bytes, 'base64') };
}

/** `{id, email}` of these users of the company (any state: history names people who left). */
export async function findPeople(db: DbOrTx, companyId: number, ids: number[]): Promise<Map<number, { id: number; email: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: users.id, email: users.email }).from(users).where(and(eq(users.companyId, companyId), inArray(users.id, ids)));
  return new Map(rows.map((row) => [row.id, row]));
}
