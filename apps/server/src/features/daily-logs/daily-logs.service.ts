import type { Readable } from 'node:stream';
import { z } from 'zod';
import {
  DAILY_LOG_DEFAULT_EXPORT_DAYS,
  DAILY_LOG_EXPORT_MAX_DAYS,
  DAILY_LOG_PDF_MAX_DAYS,
  DAILY_LOG_WORK_MAX,
  FUTURE_LOG_DATE,
  LOG_ENTRY_NOT_FOUND,
  WORK_NOT_OF_THE_DAY,
  daysInRange,
  decideAmendment,
  exportRange,
  decideContribution,
  decideLogKeeping,
  decideOwnContributionChange,
  dailyLogRangeQuery,
  entryParams,
  forDateRefusal,
  idParams,
  logAttachmentParams,
  projectDateParams,
  type Amendment,
  type DailyLog,
  type DailyLogAttachment,
  type DailyLogDecision,
  type DailyLogEntry,
  type DailyLogParties,
  type DailyLogProject,
  type DailyLogSummary,
  type MissingLogs,
  type amendmentInput,
  type dailyLogEntryInput,
  type dailyLogInput,
  type dailyLogListQuery,
  type dailyLogProjectsQuery,
  type missingLogsQuery,
  PROJECT_NOT_FOUND,
  localDateTime,
  savedSections,
} from '@siteboard/shared';
import { type DbOrTx, type ServiceContext, ConflictError, fieldError, ForbiddenError, NotFoundError, ValidationError } from '../../platform';
import type { CsvFile } from '../../lib/csv';
import { processPhoto } from '../../lib/images';
import type { Page } from '../../lib/lists';
import { personZoneOf } from '../../lib/time';
import { DAILY_LOG_CSV_COLUMNS, csvRowsOf, type DailyLogCsvRow } from './daily-logs.csv';
import { renderDailyLogPdf } from './daily-logs.pdf';
import {
  contentOf,
  countLogs,
  deleteEntry,
  deleteLogAttachment,
  findLogAttachmentBytes,
  findLogContext,
  findLogs,
  findThumbnails,
  insertAmendment,
  insertEntry,
  insertLogAttachment,
  listAmendments,
  listEntries,
  listLogAttachments,
  listLogProjects,
  listLogSummaries,
  listMissingLogs,
  listWorkRecord,
  lockEntry,
  lockLog,
  lockLogAttachment,
  lockLogContext,
  lockOrOpenLog,
  signLog,
  updateEntry,
  updateLog,
  type LogContext,
  type LogRow,
} from './daily-logs.queries';
import { EMPTY_CONTENT, LOG_PHOTO_NOT_FOUND, dayTotals, manHoursByTradeAndCompany, toWorkItem, workNotesFrom, type WorkNotes } from './daily-logs.rules';
import { writeDailyLogWorkbook } from './daily-logs.xlsx';

type SectionsInput = z.output<typeof dailyLogInput>;
type EntryInput = z.output<typeof dailyLogEntryInput>;
type AmendmentValues = z.output<typeof amendmentInput>;

/** The project of the caller's company, or 404. */
async function contextOf(db: DbOrTx, ctx: ServiceContext, projectId: number, lock = false): Promise<LogContext> {
  const context = lock ? await lockLogContext(db, ctx.user.companyId, projectId, ctx.user.id) : await findLogContext(db, ctx.user.companyId, projectId, ctx.user.id);
  if (!context) throw new NotFoundError(PROJECT_NOT_FOUND);
  return context;
}

/** What the rules read of the day's log: its status and who signed it (none when nobody opened it). */
type LogState = Pick<LogRow, 'status' | 'signerRole'> | undefined;

const partiesOf = (context: LogContext, log: LogState): DailyLogParties => ({
  projectManagerId: context.projectManagerId,
  projectStatus: context.projectStatus,
  hasWork: context.hasWork,
  logStatus: log?.status ?? null,
  signerRole: log?.signerRole ?? null,
});

/** A refusal of the rules as its HTTP error. */
function assertDecision(decision: DailyLogDecision) {
  if (decision.ok) return;
  if (decision.error === 'forbidden') throw new ForbiddenError(decision.message);
  if (decision.error === 'conflict') throw new ConflictError(decision.message);
  throw new ValidationError(decision.message);
}

function assertNotFuture(date: string, context: LogContext) {
  if (date > context.today) throw fieldError('date', FUTURE_LOG_DATE);
}

type Decide = (actor: ServiceContext['user'], parties: DailyLogParties) => DailyLogDecision;

/** Who may not act is told so first (403), then a future day (400), then the log's or project's state. */
function assertMay(ctx: ServiceContext, decide: Decide, context: LogContext, date: string, log: LogState) {
  const decision = decide(ctx.user, partiesOf(context, log));
  if (!decision.ok && decision.error === 'forbidden') assertDecision(decision);
  assertNotFuture(date, context);
  assertDecision(decision);
}

export const DAILY_LOG_RULES = { keep: decideLogKeeping, amend: decideAmendment, contribute: decideContribution } satisfies Record<string, Decide>;

/**
 * Whether the caller may act on this day's log at all, asked before the request's body is read or
 * validated (an outsider learns nothing of the body): the raw path parameters; ones that name no
 * project and day are left to validation. Asked again under the locks when the write happens.
 */
export async function assertMayActOnLog(ctx: ServiceContext, rawParams: unknown, rule: keyof typeof DAILY_LOG_RULES): Promise<void> {
  const project = idParams.safeParse(rawParams);
  if (!project.success) return;
  const context = await contextOf(ctx.db, ctx, project.data.id);
  const parsed = projectDateParams.safeParse(rawParams);
  if (!parsed.success) {
    // Not a day: whether the caller may act on this project's logs at all comes first.
    const decision = DAILY_LOG_RULES[rule](ctx.user, partiesOf(context, undefined));
    if (!decision.ok && decision.error === 'forbidden') assertDecision(decision);
    return;
  }
  const { id, date } = parsed.data;
  const [log] = await findLogs(ctx.db, ctx.user.companyId, id, date, date);
  assertMay(ctx, DAILY_LOG_RULES[rule], context, date, log);
}

/** The same for changing one's own entry: the entry must be theirs. */
export async function assertMayChangeEntry(ctx: ServiceContext, rawParams: unknown): Promise<void> {
  const parsed = entryParams.safeParse(rawParams);
  if (!parsed.success) return;
  await ctx.db.transaction(async (tx) => {
    await lockedEntry(tx, ctx, parsed.data.id, parsed.data.date, parsed.data.entryId);
  });
}

/**
 * The logs of these days with everything they show: entries, photos, amendments and the day's
 * work (a draft's built from the record now, a signed log's as it was signed). Five statements
 * for any number of days; `includeEmpty` gives a day nobody opened as an empty draft.
 */
async function readDays(db: DbOrTx, companyId: number, context: LogContext, from: string, to: string, includeEmpty: boolean): Promise<{ logs: DailyLog[]; trades: Map<number, string> }> {
  const logs = await findLogs(db, companyId, context.projectId, from, to);
  const ids = logs.map((log) => log.id);
  const drafts = logs.filter((log) => log.status === 'draft');
  const needsRecord = includeEmpty || drafts.length > 0;
  const [entries, attachments, amendments, work] = await Promise.all([
    listEntries(db, companyId, ids),
    listLogAttachments(db, companyId, ids),
    listAmendments(db, companyId, ids),
    needsRecord ? listWorkRecord(db, companyId, context.projectId, context.zone, from, to, DAILY_LOG_WORK_MAX * daysInRange(from, to)) : Promise.resolve([]),
  ]);
  const dates = includeEmpty ? [...new Set([...logs.map((log) => log.date), from])].sort() : logs.map((log) => log.date);
  const trades = new Map(entries.map((entry) => [entry.author.id, entry.authorDesignation ?? '']));
  const days = dates.map((date): DailyLog => {
    const log = logs.find((candidate) => candidate.date === date);
    const content = log ? contentOf(log) : EMPTY_CONTENT;
    const own = <T extends { logId: number }>(rows: T[]) => (log ? rows.filter((row) => row.logId === log.id).map(({ logId: _, ...row }) => row) : []);
    const dayEntries = own(entries).map(({ authorDesignation: _, ...entry }) => entry);
    const notes: WorkNotes = log?.workNotes ?? {};
    const dayWork =
      log?.signedWork ??
      work
        .filter((row) => row.day === date)
        .slice(0, DAILY_LOG_WORK_MAX)
        .map((row) => toWorkItem(row, notes));
    return {
      project_id: context.projectId,
      date,
      status: log?.status ?? 'draft',
      ...content,
      entries: dayEntries,
      attachments: own(attachments),
      work: dayWork,
      amendments: own(amendments),
      signed_by: log?.signedBy ?? null,
      signed_at: log?.signedAt ?? null,
      ...dayTotals(content, dayEntries.map((entry) => ({ authorId: entry.author.id, hours: entry.hours }))),
      created_at: log?.createdAt ?? null,
    };
  });
  return { logs: days, trades };
}

/** One day's whole log; a day nobody opened yet is an empty draft with the day's work already in it. */
export async function getDailyLog(ctx: ServiceContext, projectId: number, date: string): Promise<DailyLog> {
  const context = await contextOf(ctx.db, ctx, projectId);
  assertNotFuture(date, context);
  const { logs } = await readDays(ctx.db, ctx.user.companyId, context, date, date, true);
  return logs[0]!;
}

/** A page of the project's logs in the range, oldest first, each with its totals. */
export async function listDailyLogs(ctx: ServiceContext, projectId: number, query: z.output<typeof dailyLogListQuery>): Promise<Page<DailyLogSummary>> {
  const context = await contextOf(ctx.db, ctx, projectId);
  if (query.to && query.to > context.today) throw fieldError('to', FUTURE_LOG_DATE);
  const range = { from: query.from, to: query.to };
  const rows = await listLogSummaries(ctx.db, ctx.user.companyId, projectId, range, query);
  const total = rows[0]?.total ?? (query.offset ? await countLogs(ctx.db, ctx.user.companyId, projectId, range) : 0);
  return {
    total,
    items: rows.map((row) => ({ date: row.date, status: row.status, signed_by: row.signedBy, signed_at: row.signedAt, ...dayTotals(row, row.selfLogged) })),
  };
}

/**
 * The manager's sections (those sent replace the ones stored) and their notes on the day's work,
 * which may only name entries of the day's work. Opens the day's log if nobody has.
 */
export async function saveDailyLog(ctx: ServiceContext, projectId: number, date: string, input: SectionsInput): Promise<DailyLog> {
  const { companyId, id: userId } = ctx.user;
  const { work: workNotes, ...sections } = input;
  await ctx.db.transaction(async (tx) => {
    const context = await contextOf(tx, ctx, projectId, true);
    const log = await lockOrOpenLog(tx, companyId, projectId, date, userId);
    assertMay(ctx, decideLogKeeping, context, date, log);
    let notes: WorkNotes | undefined;
    if (workNotes) {
      const dayWork = await listWorkRecord(tx, companyId, projectId, context.zone, date, date, DAILY_LOG_WORK_MAX);
      const checked = workNotesFrom(workNotes, new Set(dayWork.map((row) => row.activityId)));
      if (checked.unknown.length > 0) {
        const index = workNotes.findIndex((note) => note.activity_id === checked.unknown[0]);
        throw new ValidationError(WORK_NOT_OF_THE_DAY, { [`work.${index}.activity_id`]: [WORK_NOT_OF_THE_DAY] });
      }
      notes = checked.notes;
    }
    await updateLog(tx, companyId, log.id, { ...savedSections(sections), ...(notes ? { workNotes: notes } : {}) });
  });
  return getDailyLog(ctx, projectId, date);
}

/** Signs the day's log: read-only from now on, its day's work kept as it is now. */
export async function signDailyLog(ctx: ServiceContext, projectId: number, date: string): Promise<DailyLog> {
  const { companyId, id: userId } = ctx.user;
  await ctx.db.transaction(async (tx) => {
    const context = await contextOf(tx, ctx, projectId, true);
    const log = await lockOrOpenLog(tx, companyId, projectId, date, userId);
    assertMay(ctx, decideLogKeeping, context, date, log);
    const work = await listWorkRecord(tx, companyId, projectId, context.zone, date, date, DAILY_LOG_WORK_MAX);
    await signLog(
      tx,
      companyId,
      log.id,
      userId,
      work.map((row) => toWorkItem(row, log.workNotes)),
    );
  });
  return getDailyLog(ctx, projectId, date);
}

/** A correction of a signed log, kept beside it; the log stays as it was signed. */
export async function addAmendment(ctx: ServiceContext, projectId: number, date: string, input: AmendmentValues): Promise<Amendment> {
  const { companyId, id: userId } = ctx.user;
  // Read in the transaction that wrote it: after the commit, the log could be gone (its project
  // deleted in between), and the answer with it.
  return ctx.db.transaction(async (tx) => {
    const context = await contextOf(tx, ctx, projectId, true);
    const log = await lockLog(tx, companyId, projectId, date);
    assertMay(ctx, decideAmendment, context, date, log);
    const amendmentId = await insertAmendment(tx, { companyId, dailyLogId: log!.id, authorId: userId, reason: input.reason, changes: input.changes });
    const amendments = await listAmendments(tx, companyId, [log!.id]);
    const { logId: _, ...amendment } = amendments.find((candidate) => candidate.id === amendmentId)!;
    return amendment;
  });
}

/** The log of the day opened (if need be) and locked, after checking the caller may add to it. */
async function openForContribution(tx: DbOrTx, ctx: ServiceContext, projectId: number, date: string) {
  const context = await contextOf(tx, ctx, projectId, true);
  const log = await lockOrOpenLog(tx, ctx.user.companyId, projectId, date, ctx.user.id);
  assertMay(ctx, decideContribution, context, date, log);
  return log;
}

/**
 * An entry as its write made it, read in that write's transaction: a removal after the commit
 * (another tab, a replayed offline delete, the project deleted) does not turn what was saved into a 404.
 */
async function entryOf(db: DbOrTx, companyId: number, logId: number, entryId: number): Promise<DailyLogEntry> {
  const entry = (await listEntries(db, companyId, [logId])).find((candidate) => candidate.id === entryId);
  if (!entry) throw new NotFoundError(LOG_ENTRY_NOT_FOUND);
  const { logId: _, authorDesignation: __, ...shown } = entry;
  return shown;
}

/** A log photo as its upload made it, read in the upload's transaction. */
async function attachmentOf(db: DbOrTx, companyId: number, logId: number, attachmentId: number): Promise<DailyLogAttachment> {
  const found = (await listLogAttachments(db, companyId, [logId])).find((candidate) => candidate.id === attachmentId);
  if (!found) throw new NotFoundError(LOG_PHOTO_NOT_FOUND);
  const { logId: _, ...photo } = found;
  return photo;
}

/**
 * A person's own hours and note on the day (opening the day's log if nobody has). `forDate`: the
 * day it was for, moved here from that day's signed log (record 129); kept as it is when the entry changes.
 */
export async function addEntry(ctx: ServiceContext, projectId: number, date: string, forDate: string | undefined, input: EntryInput): Promise<DailyLogEntry> {
  const { companyId, id: userId } = ctx.user;
  const refusal = forDateRefusal('entry', forDate, date);
  if (refusal) throw new ValidationError(refusal, { for_date: [refusal] });
  return ctx.db.transaction(async (tx) => {
    const log = await openForContribution(tx, ctx, projectId, date);
    const entryId = await insertEntry(tx, { companyId, dailyLogId: log.id, authorId: userId, hours: input.hours, note: input.note, forDate: forDate ?? null });
    return entryOf(tx, companyId, log.id, entryId);
  });
}

/** The caller's own entry of the day's log, locked; 404 when the log or entry is not there, 403 when it is someone else's. */
async function lockedEntry(tx: DbOrTx, ctx: ServiceContext, projectId: number, date: string, entryId: number) {
  const context = await contextOf(tx, ctx, projectId, true);
  const log = await lockLog(tx, ctx.user.companyId, projectId, date);
  const entry = log && (await lockEntry(tx, ctx.user.companyId, log.id, entryId));
  if (!log || !entry) throw new NotFoundError(LOG_ENTRY_NOT_FOUND);
  const decision = decideOwnContributionChange(ctx.user, entry.authorId, partiesOf(context, log));
  assertDecision(decision);
  return { log, entry };
}

export async function changeEntry(ctx: ServiceContext, projectId: number, date: string, entryId: number, input: EntryInput): Promise<DailyLogEntry> {
  return ctx.db.transaction(async (tx) => {
    const { log, entry } = await lockedEntry(tx, ctx, projectId, date, entryId);
    await updateEntry(tx, ctx.user.companyId, entry.id, { hours: input.hours, note: input.note });
    return entryOf(tx, ctx.user.companyId, log.id, entryId);
  });
}

export async function removeEntry(ctx: ServiceContext, projectId: number, date: string, entryId: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const { entry } = await lockedEntry(tx, ctx, projectId, date, entryId);
    await deleteEntry(tx, ctx.user.companyId, entry.id);
  });
}

/**
 * A photo on the day's log (who may add it was asked before the upload was read). Processed as a
 * subtask photo is, outside the transaction; written after checking again under the locks.
 * `forDate`: the day it was for, moved here from that day's signed log (record 123).
 */
export async function addLogPhoto(ctx: ServiceContext, projectId: number, date: string, forDate: string | undefined, file: string, signal?: AbortSignal): Promise<DailyLogAttachment> {
  const { companyId, id: userId } = ctx.user;
  const refusal = forDateRefusal('photo', forDate, date);
  if (refusal) throw new ValidationError(refusal, { for_date: [refusal] });
  const photo = await processPhoto(file, signal);
  return ctx.db.transaction(async (tx) => {
    const log = await openForContribution(tx, ctx, projectId, date);
    const id = await insertLogAttachment(
      tx,
      { companyId, dailyLogId: log.id, uploadedById: userId, contentType: photo.contentType, size: photo.image.length, width: photo.width, height: photo.height, forDate: forDate ?? null },
      photo,
    );
    return attachmentOf(tx, companyId, log.id, id);
  });
}

/** Removes one's own photo from the day's log while it is a draft. */
export async function removeLogPhoto(ctx: ServiceContext, projectId: number, date: string, attachmentId: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await deleteLogAttachment(tx, ctx.user.companyId, await lockedOwnLogPhoto(tx, ctx, projectId, date, attachmentId));
  });
}

/** The same for removing one's own photo: the photo must be theirs and the log not signed. */
export async function assertMayRemoveLogPhoto(ctx: ServiceContext, rawParams: unknown): Promise<void> {
  const parsed = logAttachmentParams.safeParse(rawParams);
  if (!parsed.success) return;
  const { id, date, attachmentId } = parsed.data;
  await ctx.db.transaction((tx) => lockedOwnLogPhoto(tx, ctx, id, date, attachmentId));
}

/** The caller's own photo on a log they may still change, locked: its id. */
async function lockedOwnLogPhoto(tx: DbOrTx, ctx: ServiceContext, projectId: number, date: string, attachmentId: number): Promise<number> {
  const context = await contextOf(tx, ctx, projectId, true);
  const log = await lockLog(tx, ctx.user.companyId, projectId, date);
  const photo = log && (await lockLogAttachment(tx, ctx.user.companyId, log.id, attachmentId));
  if (!log || !photo) throw new NotFoundError(LOG_PHOTO_NOT_FOUND);
  assertDecision(decideOwnContributionChange(ctx.user, photo.uploadedById, partiesOf(context, log)));
  return photo.id;
}

/** A log photo of the caller's company, or its thumbnail. */
export async function getLogPhoto(ctx: ServiceContext, attachmentId: number, which: 'image' | 'thumbnail') {
  const found = await findLogAttachmentBytes(ctx.db, ctx.user.companyId, attachmentId, which);
  if (!found) throw new NotFoundError(LOG_PHOTO_NOT_FOUND);
  return found;
}

/** The days an export covers, refused with a field error when they cannot be. */
function rangeFor(context: LogContext, query: { from?: string; to?: string }, maxDays: number) {
  const range = exportRange(query, context.today, DAILY_LOG_DEFAULT_EXPORT_DAYS, maxDays);
  if (!range.ok) throw fieldError(range.field, range.message);
  return range;
}

/** The PDF of a range's logs; it reads the thumbnails it shows (the left-out work's aside) as it writes them. */
async function pdfOf(ctx: ServiceContext, context: LogContext, { logs, trades }: Awaited<ReturnType<typeof readDays>>, range: { from: string; to: string } | null): Promise<Buffer> {
  return renderDailyLogPdf({
    companyName: context.companyName,
    projectName: context.projectName,
    zone: context.zone,
    generatedAt: localDateTime(new Date().toISOString(), context.zone),
    language: ctx.user.language,
    range,
    logs,
    trades: manHoursByTradeAndCompany(
      logs.map((log) => ({ crew: log.crew, selfLogged: log.entries.map((entry) => ({ authorId: entry.author.id, trade: trades.get(entry.author.id) ?? '', hours: entry.hours })) })),
      context.companyName,
    ),
    thumbnails: (ids) => findThumbnails(ctx.db, ctx.user.companyId, ids),
  });
}

/** One day's log as a PDF: every section, photos as thumbnails, the signature line. */
export async function dailyLogPdf(ctx: ServiceContext, projectId: number, date: string): Promise<{ pdf: Buffer; fileName: string }> {
  const context = await contextOf(ctx.db, ctx, projectId);
  assertNotFuture(date, context);
  const days = await readDays(ctx.db, ctx.user.companyId, context, date, date, true);
  return { pdf: await pdfOf(ctx, context, days, null), fileName: `siteboard-daily-log-${projectId}-${date}.pdf` };
}

/** A range of days as one PDF: a summary of the days, then each logged day in full. */
export async function dailyLogRangePdf(ctx: ServiceContext, projectId: number, query: z.output<typeof dailyLogRangeQuery>): Promise<{ pdf: Buffer; fileName: string }> {
  const context = await contextOf(ctx.db, ctx, projectId);
  const range = rangeFor(context, query, DAILY_LOG_PDF_MAX_DAYS);
  const days = await readDays(ctx.db, ctx.user.companyId, context, range.from, range.to, false);
  return { pdf: await pdfOf(ctx, context, days, range), fileName: `siteboard-daily-logs-${projectId}-${range.from}-${range.to}.pdf` };
}

/** What the CSV and the workbook read: the range's logs with their entries, and the people's trades. */
async function exportInput(ctx: ServiceContext, projectId: number, query: { from?: string; to?: string }) {
  const context = await contextOf(ctx.db, ctx, projectId);
  const range = rangeFor(context, query, DAILY_LOG_EXPORT_MAX_DAYS);
  const logs = await findLogs(ctx.db, ctx.user.companyId, projectId, range.from, range.to);
  const entries = await listEntries(ctx.db, ctx.user.companyId, logs.map((log) => log.id));
  const days = logs.map((log) => {
    const own = entries.filter((entry) => entry.logId === log.id);
    return {
      date: log.date,
      status: log.status,
      signedBy: log.signedBy,
      signedAt: log.signedAt,
      content: contentOf(log),
      entries: own,
      selfLogged: own.map((entry) => ({ authorId: entry.author.id, trade: entry.authorDesignation ?? '', hours: entry.hours })),
    };
  });
  return { context, range, days };
}

export type ExportInput = Awaited<ReturnType<typeof exportInput>>;

/** The range's logs as CSV: one row per line of a section, then the totals (decision record 082). */
export async function dailyLogsCsv(ctx: ServiceContext, projectId: number, query: { from?: string; to?: string }): Promise<CsvFile<DailyLogCsvRow>> {
  const input = await exportInput(ctx, projectId, query);
  const rows = csvRowsOf(input);
  return {
    name: `daily-logs-${projectId}-${input.range.from}-${input.range.to}`,
    columns: DAILY_LOG_CSV_COLUMNS,
    batches: (async function* () {
      yield rows;
    })(),
  };
}

/** The range's logs as an Excel workbook for people, with totals; streamed as it is written. */
export async function dailyLogsXlsx(ctx: ServiceContext, projectId: number, query: { from?: string; to?: string }): Promise<{ stream: Readable; fileName: string }> {
  const input = await exportInput(ctx, projectId, query);
  const reader = { language: ctx.user.language, zone: await personZoneOf(ctx.db, ctx.user.id) };
  return { stream: writeDailyLogWorkbook(input, reader), fileName: `siteboard-daily-logs-${projectId}-${input.range.from}-${input.range.to}.xlsx` };
}

/** The projects whose logs the caller keeps or adds to, with each one's today. */
export function listDailyLogProjects(ctx: ServiceContext, query: z.output<typeof dailyLogProjectsQuery>): Promise<Page<DailyLogProject>> {
  return listLogProjects(ctx.db, ctx.user, query.search, query);
}

/** The admin's view: each open project's working days without a signed log. */
export function listMissingDailyLogs(ctx: ServiceContext, query: z.output<typeof missingLogsQuery>): Promise<Page<MissingLogs>> {
  return listMissingLogs(ctx.db, ctx.user.companyId, query.days, query);
}
