import { and, asc, between, eq, gte, ilike, inArray, lt, lte, or, sql, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Amendment, DailyLogAttachment, DailyLogContent, DailyLogEntry, DailyLogProject, DailyLogStatus, MissingLogs, ProjectStatus, Role, WorkItem, WorkNote } from '@siteboard/shared';
import type { DbOrTx } from '../../platform';
import { attachmentData, subtaskActivity, subtaskAttachments } from '../../schema/activity';
import { companies } from '../../schema/companies';
import { dailyLogAmendments, dailyLogAttachmentData, dailyLogAttachments, dailyLogEntries, dailyLogs } from '../../schema/daily-logs';
import { notifications } from '../../schema/notifications';
import { projects } from '../../schema/projects';
import { majorTasks, subtasks } from '../../schema/tasks';
import { users } from '../../schema/users';
import { isoTimestamp, personJson } from '../../lib/json-sql';
import { fromBytea, toBytea } from '../tasks/activity.queries';
import { containingPattern, matchingRowCount } from '../../lib/lists';
import { workKind, type WorkRecordRow } from './daily-logs.rules';

function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}

/** `{id, email, full_name}` of a joined user, or null: read as JSON, so a row maps to the API as it comes. */
const person = (who: { id: SQLWrapper; email: SQLWrapper; fullName: SQLWrapper }) => personJson(who.id, who.email, who.fullName);

const managers = alias(users, 'log_project_managers');
const signers = alias(users, 'log_signers');

/** The project's zone: its manager's, else its company's (decision record 080). */
const projectZone = sql<string>`coalesce(${managers.timezone}, ${companies.timezone})`;
/** The project's calendar date now, in its zone. */
const projectToday = sql<string>`(timezone(coalesce(${managers.timezone}, ${companies.timezone}), now()))::date::text`;

/** The caller has a subtask assigned in the project: what lets them add to its logs. */
const hasWorkIn = (projectId: SQLWrapper, companyId: SQLWrapper, userId: number) =>
  sql<boolean>`exists (select 1 from ${subtasks} join ${majorTasks} on ${majorTasks.id} = ${subtasks.majorTaskId}
    where ${subtasks.companyId} = ${companyId} and ${subtasks.assignedToId} = ${userId} and ${majorTasks.projectId} = ${projectId})`;

export interface LogContext {
  projectId: number;
  projectName: string;
  projectStatus: ProjectStatus;
  projectManagerId: number | null;
  companyName: string;
  zone: string;
  today: string;
  hasWork: boolean;
}

function selectContext(db: DbOrTx, companyId: number, projectId: number, userId: number) {
  return db
    .select({
      projectId: projects.id,
      projectName: projects.name,
      projectStatus: projects.status,
      projectManagerId: projects.managerId,
      companyName: companies.name,
      zone: projectZone,
      today: projectToday,
      hasWork: hasWorkIn(projects.id, projects.companyId, userId),
    })
    .from(projects)
    .innerJoin(companies, eq(companies.id, projects.companyId))
    .leftJoin(managers, eq(managers.id, projects.managerId))
    .where(and(eq(projects.companyId, companyId), eq(projects.id, projectId)))
    .$dynamic();
}

/** The project of the company with what the daily-log rules need: its zone and today, and whether the caller has work in it. */
export async function findLogContext(db: DbOrTx, companyId: number, projectId: number, userId: number): Promise<LogContext | undefined> {
  const [row] = await selectContext(db, companyId, projectId, userId);
  return row;
}

/** The same, the project locked for share until the transaction ends: it cannot be completed meanwhile. */
export async function lockLogContext(tx: DbOrTx, companyId: number, projectId: number, userId: number): Promise<LogContext | undefined> {
  const [row] = await selectContext(tx, companyId, projectId, userId).for('share', { of: projects });
  return row;
}

/**
 * A signed log's work as it was signed, each person in it named as they are called now (also
 * after they left): the work is the record, a name is read with it, as everywhere (decision
 * record 062). The e-mail stays the one signed.
 */
const signedWorkNamed = sql<WorkItem[] | null>`case when ${dailyLogs.signedWork} is null then null else coalesce((
  select jsonb_agg(case when actors.id is null then work.item else jsonb_set(work.item, '{actor,full_name}', coalesce(to_jsonb(actors.full_name), 'null'::jsonb)) end order by work.position)
  from jsonb_array_elements(${dailyLogs.signedWork}) with ordinality as work(item, position)
  left join ${users} actors on actors.company_id = ${dailyLogs.companyId} and actors.id = (work.item -> 'actor' ->> 'id')::int
), '[]'::jsonb) end`;

const logColumns = {
  id: dailyLogs.id,
  date: sql<string>`${dailyLogs.logDate}::text`,
  status: dailyLogs.status,
  weather: dailyLogs.weather,
  crew: dailyLogs.crew,
  equipment: dailyLogs.equipment,
  deliveries: dailyLogs.deliveries,
  delays: dailyLogs.delays,
  incidents: dailyLogs.incidents,
  visitors: dailyLogs.visitors,
  notes: dailyLogs.notes,
  workNotes: dailyLogs.workNotes,
  signedWork: signedWorkNamed,
  signedBy: person(signers),
  signerRole: signers.role,
  signedAt: isoTimestamp(dailyLogs.signedAt),
  createdAt: isoTimestamp(dailyLogs.createdAt),
};

export type LogRow = Awaited<ReturnType<typeof selectLogs>>[number];

function selectLogs(db: DbOrTx, companyId: number, projectId: number, from: string, to: string) {
  return db
    .select(logColumns)
    .from(dailyLogs)
    .leftJoin(signers, eq(signers.id, dailyLogs.signedById))
    .where(and(eq(dailyLogs.companyId, companyId), eq(dailyLogs.projectId, projectId), between(dailyLogs.logDate, from, to)))
    .orderBy(asc(dailyLogs.logDate));
}

/** The project's logs of these days, oldest first (a day nobody opened has none). */
export function findLogs(db: DbOrTx, companyId: number, projectId: number, from: string, to: string): Promise<LogRow[]> {
  return selectLogs(db, companyId, projectId, from, to);
}

export const contentOf = (row: LogRow): DailyLogContent => ({
  weather: row.weather,
  crew: row.crew,
  equipment: row.equipment,
  deliveries: row.deliveries,
  delays: row.delays,
  incidents: row.incidents,
  visitors: row.visitors,
  notes: row.notes,
});

/** The day's log, opened if nobody has yet, locked for update until the transaction ends. */
export async function lockOrOpenLog(tx: DbOrTx, companyId: number, projectId: number, date: string, userId: number) {
  await tx.insert(dailyLogs).values({ companyId, projectId, logDate: date, createdById: userId }).onConflictDoNothing();
  return (await lockLog(tx, companyId, projectId, date))!;
}

/** The day's log locked for update, if there is one. */
export async function lockLog(tx: DbOrTx, companyId: number, projectId: number, date: string) {
  const [row] = await tx
    .select({ id: dailyLogs.id, status: dailyLogs.status, workNotes: dailyLogs.workNotes, signerRole: signers.role })
    .from(dailyLogs)
    .leftJoin(signers, eq(signers.id, dailyLogs.signedById))
    .where(and(eq(dailyLogs.companyId, companyId), eq(dailyLogs.projectId, projectId), eq(dailyLogs.logDate, date)))
    .for('update', { of: dailyLogs });
  return row as { id: number; status: DailyLogStatus; workNotes: Record<string, Omit<WorkNote, 'activity_id'>>; signerRole: Role | null } | undefined;
}

export async function updateLog(tx: DbOrTx, companyId: number, logId: number, values: Partial<DailyLogContent> & { workNotes?: Record<string, Omit<WorkNote, 'activity_id'>> }) {
  await tx
    .update(dailyLogs)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(dailyLogs.companyId, companyId), eq(dailyLogs.id, logId)));
}

export async function signLog(tx: DbOrTx, companyId: number, logId: number, signerId: number, work: WorkItem[]) {
  await tx
    .update(dailyLogs)
    .set({ status: 'signed', signedById: signerId, signedAt: sql`now()`, signedWork: work, updatedAt: sql`now()` })
    .where(and(eq(dailyLogs.companyId, companyId), eq(dailyLogs.id, logId)));
}

const authors = alias(users, 'log_entry_authors');

/** The people's own entries of these logs, oldest first: one statement. */
export async function listEntries(db: DbOrTx, companyId: number, logIds: number[]): Promise<(DailyLogEntry & { logId: number; authorDesignation: string | null })[]> {
  if (logIds.length === 0) return [];
  const rows = await db
    .select({
      id: dailyLogEntries.id,
      logId: dailyLogEntries.dailyLogId,
      author: person(authors),
      authorDesignation: authors.designation,
      hours: dailyLogEntries.hours,
      note: dailyLogEntries.note,
      created_at: isoTimestamp(dailyLogEntries.createdAt),
      updated_at: isoTimestamp(dailyLogEntries.updatedAt),
      for_date: dailyLogEntries.forDate,
    })
    .from(dailyLogEntries)
    .innerJoin(authors, eq(authors.id, dailyLogEntries.authorId))
    .where(and(eq(dailyLogEntries.companyId, companyId), inArray(dailyLogEntries.dailyLogId, logIds)))
    .orderBy(asc(dailyLogEntries.id));
  return rows as (DailyLogEntry & { logId: number; authorDesignation: string | null })[];
}

/** One day as the CSV and the workbook read it: the log, its crew entries, and who logged hours in which trade (built by the service). */
export interface ExportDay {
  date: LogRow['date'];
  status: LogRow['status'];
  signedBy: LogRow['signedBy'];
  signedAt: LogRow['signedAt'];
  content: DailyLogContent;
  entries: Awaited<ReturnType<typeof listEntries>>;
  selfLogged: { authorId: number; trade: string; hours: number | null }[];
}

/** What an export of a range of days reads: the project's context and its days. */
export interface ExportDays {
  context: LogContext;
  days: ExportDay[];
}

export async function insertEntry(tx: DbOrTx, values: { companyId: number; dailyLogId: number; authorId: number; hours: number | null; note: string | null; forDate?: string | null }): Promise<number> {
  const [row] = await tx.insert(dailyLogEntries).values(values).returning({ id: dailyLogEntries.id });
  return row!.id;
}

/** An entry of the log, locked for update. */
export async function lockEntry(tx: DbOrTx, companyId: number, logId: number, entryId: number) {
  const [row] = await tx
    .select({ id: dailyLogEntries.id, authorId: dailyLogEntries.authorId })
    .from(dailyLogEntries)
    .where(and(eq(dailyLogEntries.companyId, companyId), eq(dailyLogEntries.dailyLogId, logId), eq(dailyLogEntries.id, entryId)))
    .for('update');
  return row;
}

export async function updateEntry(tx: DbOrTx, companyId: number, entryId: number, values: { hours: number | null; note: string | null }) {
  await tx
    .update(dailyLogEntries)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(dailyLogEntries.companyId, companyId), eq(dailyLogEntries.id, entryId)));
}

export async function deleteEntry(tx: DbOrTx, companyId: number, entryId: number) {
  await tx.delete(dailyLogEntries).where(and(eq(dailyLogEntries.companyId, companyId), eq(dailyLogEntries.id, entryId)));
}

/** Where a log's photo and its thumbnail are read (with the bearer token). */
export const logAttachmentUrls = (id: number) => ({ url: `/api/daily-log-attachments/${id}/`, thumbnail_url: `/api/daily-log-attachments/${id}/thumbnail/` });

const uploaders = alias(users, 'log_photo_uploaders');

/** The photos of these logs (facts and addresses, never the bytes), oldest first: one statement. */
export async function listLogAttachments(db: DbOrTx, companyId: number, logIds: number[]): Promise<(DailyLogAttachment & { logId: number })[]> {
  if (logIds.length === 0) return [];
  const rows = await db
    .select({
      id: dailyLogAttachments.id,
      logId: dailyLogAttachments.dailyLogId,
      content_type: dailyLogAttachments.contentType,
      size: dailyLogAttachments.size,
      width: dailyLogAttachments.width,
      height: dailyLogAttachments.height,
      uploaded_by: person(uploaders),
      created_at: isoTimestamp(dailyLogAttachments.createdAt),
      for_date: dailyLogAttachments.forDate,
    })
    .from(dailyLogAttachments)
    .leftJoin(uploaders, eq(uploaders.id, dailyLogAttachments.uploadedById))
    .where(and(eq(dailyLogAttachments.companyId, companyId), inArray(dailyLogAttachments.dailyLogId, logIds)))
    .orderBy(asc(dailyLogAttachments.id));
  return rows.map((row) => ({ ...row, created_at: row.created_at!, ...logAttachmentUrls(row.id) }));
}

export async function insertLogAttachment(
  tx: DbOrTx,
  values: { companyId: number; dailyLogId: number; uploadedById: number; contentType: string; size: number; width: number; height: number; forDate?: string | null },
  data: { image: Buffer; thumbnail: Buffer },
): Promise<number> {
  const [row] = await tx.insert(dailyLogAttachments).values(values).returning({ id: dailyLogAttachments.id });
  await tx.insert(dailyLogAttachmentData).values({ attachmentId: row!.id, image: toBytea(data.image), thumbnail: toBytea(data.thumbnail) });
  return row!.id;
}

export async function lockLogAttachment(tx: DbOrTx, companyId: number, logId: number, attachmentId: number) {
  const [row] = await tx
    .select({ id: dailyLogAttachments.id, uploadedById: dailyLogAttachments.uploadedById })
    .from(dailyLogAttachments)
    .where(and(eq(dailyLogAttachments.companyId, companyId), eq(dailyLogAttachments.dailyLogId, logId), eq(dailyLogAttachments.id, attachmentId)))
    .for('update');
  return row;
}

export async function deleteLogAttachment(tx: DbOrTx, companyId: number, attachmentId: number) {
  await tx.delete(dailyLogAttachments).where(and(eq(dailyLogAttachments.companyId, companyId), eq(dailyLogAttachments.id, attachmentId)));
}

/** A log photo of the company (or its thumbnail, always a JPEG) with its type: the only statement that reads one photo's bytes. */
export async function findLogAttachmentBytes(db: DbOrTx, companyId: number, attachmentId: number, which: 'image' | 'thumbnail') {
  const [row] = await db
    .select({ contentType: dailyLogAttachments.contentType, bytes: fromBytea(which === 'image' ? dailyLogAttachmentData.image : dailyLogAttachmentData.thumbnail) })
    .from(dailyLogAttachments)
    .innerJoin(dailyLogAttachmentData, eq(dailyLogAttachmentData.attachmentId, dailyLogAttachments.id))
    .where(and(eq(dailyLogAttachments.companyId, companyId), eq(dailyLogAttachments.id, attachmentId)));
  return row && { contentType: which === 'image' ? row.contentType : 'image/jpeg', bytes: Buffer.from(row.bytes, 'base64') };
}

/**
 * Thumbnails a PDF shows, of the logs' photos and of the day's work's photos, by kind and id: at most
 * two statements (the PDF asks for a batch at a time, THUMBNAILS_AT_ONCE).
 */
export async function findThumbnails(db: DbOrTx, companyId: number, ids: { log: number[]; work: number[] }): Promise<{ log: Map<number, Buffer>; work: Map<number, Buffer> }> {
  const log =
    ids.log.length === 0
      ? []
      : await db
          .select({ id: dailyLogAttachments.id, bytes: fromBytea(dailyLogAttachmentData.thumbnail) })
          .from(dailyLogAttachments)
          .innerJoin(dailyLogAttachmentData, eq(dailyLogAttachmentData.attachmentId, dailyLogAttachments.id))
          .where(and(eq(dailyLogAttachments.companyId, companyId), inArray(dailyLogAttachments.id, ids.log)));
  const work =
    ids.work.length === 0
      ? []
      : await db
          .select({ id: subtaskAttachments.id, bytes: fromBytea(attachmentData.thumbnail) })
          .from(subtaskAttachments)
          .innerJoin(attachmentData, eq(attachmentData.attachmentId, subtaskAttachments.id))
          .where(and(eq(subtaskAttachments.companyId, companyId), inArray(subtaskAttachments.id, ids.work)));
  const toMap = (rows: { id: number; bytes: string }[]) => new Map(rows.map((row) => [row.id, Buffer.from(row.bytes, 'base64')]));
  return { log: toMap(log), work: toMap(work) };
}

const amendmentAuthors = alias(users, 'log_amendment_authors');

/** The amendments of these logs, oldest first: one statement. */
export async function listAmendments(db: DbOrTx, companyId: number, logIds: number[]): Promise<(Amendment & { logId: number })[]> {
  if (logIds.length === 0) return [];
  const rows = await db
    .select({
      id: dailyLogAmendments.id,
      logId: dailyLogAmendments.dailyLogId,
      reason: dailyLogAmendments.reason,
      // As the driver read it: drizzle's jsonb column parses a stored string once more, so changes
      // written as "5" or "[1,2]" would come back as a number or a list.
      changes: sql<Amendment['changes']>`${dailyLogAmendments.changes}`,
      author: person(amendmentAuthors),
      created_at: isoTimestamp(dailyLogAmendments.createdAt),
    })
    .from(dailyLogAmendments)
    .leftJoin(amendmentAuthors, eq(amendmentAuthors.id, dailyLogAmendments.authorId))
    .where(and(eq(dailyLogAmendments.companyId, companyId), inArray(dailyLogAmendments.dailyLogId, logIds)))
    .orderBy(asc(dailyLogAmendments.id));
  return rows.map((row) => ({ ...row, created_at: row.created_at! }));
}

export async function insertAmendment(tx: DbOrTx, values: { companyId: number; dailyLogId: number; authorId: number; reason: string; changes: Amendment['changes'] }): Promise<number> {
  const [row] = await tx.insert(dailyLogAmendments).values(values).returning({ id: dailyLogAmendments.id });
  return row!.id;
}

/** Midnight starting a calendar date in a zone, as an instant. */
const startOfDay = (date: string, zone: string) => sql`(${date}::date)::timestamp at time zone ${zone}`;

const workActors = alias(users, 'work_actors');

/**
 * When a line of the record was done: the time its device said, for work sent later (decision
 * record 109), else its arrival. A day's work is the work done that day: a photo taken in a basement
 * on Monday evening that synced on Tuesday is Monday's (a draft's; a signed log keeps what it was signed with).
 */
const workDoneAt = sql`coalesce(${subtaskActivity.doneAt}, ${subtaskActivity.createdAt})`;

/**
 * What the record of work says happened in the project on these days (each in the project's zone):
 * the status changes that sent subtasks for approval, approved, declined or completed them, and
 * the photos taken on them, with who and when they were done, oldest first: one statement, at most `limit` rows.
 */
export async function listWorkRecord(db: DbOrTx, companyId: number, projectId: number, zone: string, from: string, to: string, limit: number): Promise<(WorkRecordRow & { day: string })[]> {
  const rows = await db
    .select({
      activityId: subtaskActivity.id,
      type: subtaskActivity.type,
      fromStatus: subtaskActivity.fromStatus,
      toStatus: subtaskActivity.toStatus,
      text: subtaskActivity.text,
      at: isoTimestamp(workDoneAt),
      day: sql<string>`(timezone(${zone}, ${workDoneAt}))::date::text`,
      subtaskId: subtasks.id,
      subtaskName: subtasks.name,
      majorTaskId: majorTasks.id,
      majorTaskName: majorTasks.name,
      actorId: workActors.id,
      actorEmail: workActors.email,
      actorFullName: workActors.fullName,
      attachmentId: subtaskAttachments.id,
      contentType: subtaskAttachments.contentType,
      size: subtaskAttachments.size,
      width: subtaskAttachments.width,
      height: subtaskAttachments.height,
    })
    .from(subtaskActivity)
    .innerJoin(subtasks, eq(subtasks.id, subtaskActivity.subtaskId))
    .innerJoin(majorTasks, eq(majorTasks.id, subtasks.majorTaskId))
    .leftJoin(workActors, eq(workActors.id, subtaskActivity.actorId))
    .leftJoin(subtaskAttachments, eq(subtaskAttachments.id, subtaskActivity.attachmentId))
    .where(
      and(
        eq(subtaskActivity.companyId, companyId),
        eq(majorTasks.projectId, projectId),
        gte(workDoneAt, startOfDay(from, zone)),
        lt(workDoneAt, sql`${startOfDay(to, zone)} + interval '1 day'`),
        or(eq(subtaskActivity.type, 'attachment'), eq(subtaskActivity.type, 'status_changed')),
      ),
    )
    .orderBy(asc(workDoneAt), asc(subtaskActivity.id))
    .limit(limit);
  return rows.filter((row) => workKind(row) !== null).map((row) => ({ ...row, at: row.at! }));
}

/**
 * A page of the project's logs in the range (either end open), oldest first, each with what its
 * totals need (its crew and delays, and the hours people logged themselves), and how many logs
 * the range holds: one statement.
 */
export async function listLogSummaries(db: DbOrTx, companyId: number, projectId: number, range: { from?: string; to?: string }, page: { limit: number; offset?: number }) {
  const selfLogged = sql<{ authorId: number; hours: number | null }[]>`coalesce((select json_agg(json_build_object('authorId', ${dailyLogEntries.authorId}, 'hours', ${dailyLogEntries.hours}))
    from ${dailyLogEntries} where ${dailyLogEntries.dailyLogId} = ${dailyLogs.id}), '[]')`;
  return db
    .select({
      date: sql<string>`${dailyLogs.logDate}::text`,
      status: dailyLogs.status,
      crew: dailyLogs.crew,
      delays: dailyLogs.delays,
      selfLogged,
      signedBy: person(signers),
      signedAt: isoTimestamp(dailyLogs.signedAt),
      total: matchingRowCount(),
    })
    .from(dailyLogs)
    .leftJoin(signers, eq(signers.id, dailyLogs.signedById))
    .where(
      and(
        eq(dailyLogs.companyId, companyId),
        eq(dailyLogs.projectId, projectId),
        range.from ? gte(dailyLogs.logDate, range.from) : undefined,
        range.to ? lte(dailyLogs.logDate, range.to) : undefined,
      ),
    )
    .orderBy(asc(dailyLogs.logDate))
    .limit(page.limit)
    .offset(page.offset ?? 0);
}

export async function countLogs(db: DbOrTx, companyId: number, projectId: number, range: { from?: string; to?: string }): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(dailyLogs)
    .where(
      and(
        eq(dailyLogs.companyId, companyId),
        eq(dailyLogs.projectId, projectId),
        range.from ? gte(dailyLogs.logDate, range.from) : undefined,
        range.to ? lte(dailyLogs.logDate, range.to) : undefined,
      ),
    );
  return row?.count ?? 0;
}

/**
 * The projects whose logs the caller keeps or adds to (an admin: every project of the company; a
 * manager: those they manage or have work in; a team member: those they have work in), ongoing
 * ones first (the log screen opens on the first: a site at work, not one yet to start), then
 * planned, then completed, each by name, with its own today: one statement for a page and its total.
 */
export async function listLogProjects(db: DbOrTx, user: { id: number; companyId: number; role: string }, search: string | undefined, page: { limit: number; offset?: number }) {
  const admin = user.role === 'admin';
  const work = hasWorkIn(projects.id, projects.companyId, user.id);
  const keeps = admin ? sql<boolean>`true` : user.role === 'manager' ? sql<boolean>`coalesce(${projects.managerId} = ${user.id}, false)` : sql<boolean>`false`;
  const rows = await db
    .select({
      id: projects.id,
      name: projects.name,
      status: projects.status,
      manager: person(managers),
      today: projectToday,
      mayKeep: keeps,
      hasWork: work,
      total: matchingRowCount(),
    })
    .from(projects)
    .innerJoin(companies, eq(companies.id, projects.companyId))
    .leftJoin(managers, eq(managers.id, projects.managerId))
    .where(and(eq(projects.companyId, user.companyId), admin ? undefined : or(sql`${keeps}`, sql`${work}`), search ? ilike(projects.name, containingPattern(search)) : undefined))
    .orderBy(sql`case ${projects.status} when 'ongoing' then 0 when 'planned' then 1 else 2 end`, asc(projects.name), asc(projects.id))
    .limit(page.limit)
    .offset(page.offset ?? 0);
  return {
    total: rows[0]?.total ?? 0,
    items: rows.map(
      (row): DailyLogProject => ({
        id: row.id,
        name: row.name,
        status: row.status,
        manager: row.manager,
        today: row.today,
        may_keep: row.mayKeep,
        may_contribute: row.mayKeep || row.hasWork,
      }),
    ),
  };
}

/**
 * A day counts as a working day on Monday to Friday, and on any other day someone opened the
 * project's log (work happened); a project owes a signed log for each of its working days between
 * its start and end dates (decision record 080).
 */
const owesLog = (projectId: SQLWrapper, companyId: SQLWrapper, day: SQLWrapper) =>
  sql`(extract(isodow from ${day}) < 6 or exists (select 1 from ${dailyLogs} where ${dailyLogs.companyId} = ${companyId} and ${dailyLogs.projectId} = ${projectId} and ${dailyLogs.logDate} = ${day}))
    and not exists (select 1 from ${dailyLogs} where ${dailyLogs.companyId} = ${companyId} and ${dailyLogs.projectId} = ${projectId} and ${dailyLogs.logDate} = ${day} and ${dailyLogs.status} = 'signed')`;

/**
 * The company's projects that are not completed with the working days of the last `days` days
 * before their today that have no signed log (oldest first), only those with at least one, by name:
 * one statement for a page and its total. A day before the project was entered in SiteBoard is
 * owed only if someone opened its log since (nobody could have kept it then: a company that
 * signed up today and entered its running projects saw ten "missed" days on each).
 */
export async function listMissingLogs(db: DbOrTx, companyId: number, days: number, page: { limit: number; offset?: number }): Promise<{ items: MissingLogs[]; total: number }> {
  const result = await db.execute(sql`
    select id, name, manager, today::text as today, missing, count(*) over () as total
    from (
      select p.id, p.name, ${personJson(sql`m.id`, sql`m.email`, sql`m.full_name`)} as manager, local.today,
        array(
          select day::date::text from generate_series(greatest(p.start_date, local.today - ${days}::int), least(p.end_date, local.today - 1), interval '1 day') as day
          where (day::date >= local.entered or exists (select 1 from ${dailyLogs} where ${dailyLogs.companyId} = p.company_id and ${dailyLogs.projectId} = p.id and ${dailyLogs.logDate} = day::date))
            and ${owesLog(sql`p.id`, sql`p.company_id`, sql`day::date`)}
          order by day
        ) as missing
      from ${projects} p
      join ${companies} c on c.id = p.company_id
      left join ${users} m on m.id = p.manager_id
      cross join lateral (select (timezone(coalesce(m.timezone, c.timezone), now()))::date as today, (timezone(coalesce(m.timezone, c.timezone), p.created_at))::date as entered) local
      where p.company_id = ${companyId} and p.status <> 'completed'
    ) owed
    where cardinality(missing) > 0
    order by name, id
    limit ${page.limit} offset ${page.offset ?? 0}
  `);
  const rows = rowsOf<{ id: number; name: string; manager: MissingLogs['project']['manager']; today: string; missing: string[]; total: number | string }>(result);
  return {
    total: Number(rows[0]?.total ?? 0),
    items: rows.map((row) => ({ project: { id: row.id, name: row.name, manager: row.manager }, today: row.today, missing: row.missing })),
  };
}

export interface ReminderCandidate {
  id: number;
  companyId: number;
  projectName: string;
  managerId: number;
  date: string;
  dedupeKey: string;
}

/**
 * Projects not completed whose active manager has reached `localHour` in their own zone (else the
 * company's) on a working day of the project without a signed log, not yet reminded of that day,
 * in the order of their ids, `limit` after `afterId`: the daily-log reminder sweep's batch.
 */
export async function findDailyLogReminderCandidates(db: DbOrTx, now: Date, localHour: number, limit: number, afterId = 0): Promise<ReminderCandidate[]> {
  const result = await db.execute(sql`
    select p.id, p.company_id as "companyId", p.name as "projectName", m.id as "managerId", local.day::text as date,
      'daily_log_reminder:' || p.id || ':' || local.day::text as "dedupeKey"
    from ${projects} p
    join ${companies} c on c.id = p.company_id
    join ${users} m on m.id = p.manager_id and m.deleted_at is null
    cross join lateral (select timezone(coalesce(m.timezone, c.timezone), ${now.toISOString()}::timestamptz) as at) clock
    cross join lateral (select clock.at::date as day) local
    where p.id > ${afterId} and p.status <> 'completed'
      and extract(hour from clock.at) >= ${localHour}
      and local.day between p.start_date and p.end_date
      and ${owesLog(sql`p.id`, sql`p.company_id`, sql`local.day`)}
      and not exists (select 1 from ${notifications} where ${notifications.dedupeKey} = 'daily_log_reminder:' || p.id || ':' || local.day::text)
    order by p.id
    limit ${limit}
  `);
  return rowsOf<ReminderCandidate>(result);
}
