import { z } from 'zod';
import { attachmentSchema } from './activity';
import { dateField, optionalText, pageParams, positiveId, searchParam, text } from './common';
import { EXPORT_FORMATS } from './exports';
import { DAILY_LOG_PROJECTS_MAX_LIMIT, MISSING_LOGS_DEFAULT_DAYS } from './list-sizes';
import { PROJECT_STATUSES } from './project-status';

/**
 * The daily site log (issue 45): one per project and day, the day being the project's local date
 * (its manager's time zone, else the company's; decision record 080). The project's manager (or an
 * admin) fills the sections and signs; people with work in the project add their own hours, notes
 * and photos; a signed log changes only by amendments kept beside it.
 */
export const DAILY_LOG_STATUSES = ['draft', 'signed'] as const;
export type DailyLogStatus = (typeof DAILY_LOG_STATUSES)[number];

/** Rows a section may hold, and the longest texts: a day on a big site, not a novel. */
export const DAILY_LOG_SECTION_MAX_ROWS = 100;
export const DAILY_LOG_NOTES_MAX = 10_000;
export const DAILY_LOG_TEXT_MAX = 2000;
export const DAILY_LOG_NAME_MAX = 200;
/** The most entries of the record of work one day shows (a day of one project: far more than a site makes). */
export const DAILY_LOG_WORK_MAX = 500;
/** A range's PDF covers at most a month of days; its CSV and Excel workbook a year. */
export const DAILY_LOG_PDF_MAX_DAYS = 31;
export const DAILY_LOG_EXPORT_MAX_DAYS = 366;
/** Without `from`, an export covers the month up to `to`. */
export const DAILY_LOG_DEFAULT_EXPORT_DAYS = 31;
export const DAILY_LOGS_MAX_LIMIT = 366;
/** The admin's view of days without a signed log looks back at most this far. */
export const MISSING_LOGS_MAX_DAYS = 92;

export const FUTURE_LOG_DATE = 'The date is in the future: a daily log is kept for today or an earlier day.';
export const LOG_ENTRY_NOT_FOUND = 'Entry not found.';
export const LOG_ENTRY_EMPTY = 'Add hours or a note.';
export const RANGE_START_AFTER_END = 'The start of the range must be on or before its end.';
export const rangeTooLong = (days: number) => `A range covers at most ${days} days.`;
export const WORK_NOT_OF_THE_DAY = "This entry is not in the day's record of work.";
export const CHANGES_REQUIRED = 'Say what changed: a text, or the corrected sections.';

const trimmed = (label: string, max: number) =>
  text({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

/** A number field's refusal: left empty (the form sends null), it is required; anything else not a number is `otherwise`. */
const numberRefusal = (label: string, otherwise: string) => (issue: { input?: unknown }) => (issue.input === null || issue.input === undefined ? `${label} is required.` : otherwise);

/** Hours and other measures: a number in the range, kept to two decimals (a quarter hour is 0.25). */
const measure = (label: string, min: number, max: number) =>
  z
    .number({ error: numberRefusal(label, `${label} must be between ${min} and ${max}.`) })
    .min(min, `${label} must be between ${min} and ${max}.`)
    .max(max, `${label} must be between ${min} and ${max}.`)
    .transform((value) => Math.round(value * 100) / 100);

/** Wind and precipitation are typed as people say them ("NW 20 km/h", "5 mm"); a bare number is kept as its text. */
const saying = (label: string) =>
  z.preprocess((value) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : value), optionalText(DAILY_LOG_NAME_MAX, label));

const rows = <T extends z.ZodType>(row: T, label: string) =>
  z.array(row, { error: `${label} must be a list.` }).max(DAILY_LOG_SECTION_MAX_ROWS, `At most ${DAILY_LOG_SECTION_MAX_ROWS} rows in ${label}.`);

/** Typed in, since the server has no internet: conditions ("Sunny"), °C, wind, precipitation, and whether it stopped work. */
export const weatherInput = z.object({
  conditions: trimmed('Conditions', DAILY_LOG_NAME_MAX),
  temperature: measure('Temperature', -70, 70).nullish().transform((value) => value ?? null),
  wind: saying('Wind'),
  precipitation: saying('Precipitation'),
  work_stopped: z.boolean({ error: 'Work stopped must be true or false.' }).default(false),
});
export type WeatherInput = z.input<typeof weatherInput>;
export type Weather = z.output<typeof weatherInput>;

/** Who was on site: `headcount` people of a trade and company, each working `hours` (man-hours = headcount × hours). */
export const crewRowInput = z.object({
  trade: trimmed('Trade', DAILY_LOG_NAME_MAX),
  company: trimmed('Company', DAILY_LOG_NAME_MAX),
  headcount: z
    .number({ error: numberRefusal('Head count', 'Head count must be a whole number.') })
    .int('Head count must be a whole number.')
    .min(1, 'Head count must be between 1 and 1000.')
    .max(1000, 'Head count must be between 1 and 1000.'),
  hours: measure('Hours', 0, 24),
});
export type CrewRow = z.output<typeof crewRowInput>;

export const equipmentRowInput = z.object({
  name: trimmed('Equipment', DAILY_LOG_NAME_MAX),
  hours: measure('Hours', 0, 24).nullish().transform((value) => value ?? null),
});
export const deliveryRowInput = z.object({ what: trimmed('What', DAILY_LOG_TEXT_MAX), from: optionalText(DAILY_LOG_NAME_MAX, 'Supplier') });
export const delayRowInput = z.object({ cause: trimmed('Cause', DAILY_LOG_TEXT_MAX), hours_lost: measure('Hours lost', 0, 24) });
export type DelayRow = z.output<typeof delayRowInput>;
export const INCIDENT_KINDS = ['incident', 'observation'] as const;
export const incidentRowInput = z.object({
  kind: z.enum(INCIDENT_KINDS, { error: 'Kind must be incident or observation.' }).default('incident'),
  description: trimmed('Description', DAILY_LOG_TEXT_MAX),
});
export const visitorRowInput = z.object({
  name: trimmed('Visitor', DAILY_LOG_NAME_MAX),
  company: optionalText(DAILY_LOG_NAME_MAX, 'Company'),
  purpose: optionalText(DAILY_LOG_TEXT_MAX, 'Purpose'),
});

/** The sections the manager writes, each replaced whole when sent, kept as it is when left out. */
const sectionFields = {
  weather: weatherInput.nullable().optional(),
  crew: rows(crewRowInput, 'crew').optional(),
  equipment: rows(equipmentRowInput, 'equipment').optional(),
  deliveries: rows(deliveryRowInput, 'deliveries').optional(),
  delays: rows(delayRowInput, 'delays').optional(),
  incidents: rows(incidentRowInput, 'incidents').optional(),
  visitors: rows(visitorRowInput, 'visitors').optional(),
  notes: text()
    .trim()
    .max(DAILY_LOG_NOTES_MAX, `Notes must be at most ${DAILY_LOG_NOTES_MAX} characters.`)
    .nullish()
    .transform((value) => value ?? undefined),
};
export const DAILY_LOG_SECTIONS = ['weather', 'crew', 'equipment', 'deliveries', 'delays', 'incidents', 'visitors', 'notes'] as const;
export type DailyLogSection = (typeof DAILY_LOG_SECTIONS)[number];

/** The manager's word on one entry of the day's work: left out of the log, and/or a comment. What the record says is not theirs to change. */
export const workNoteInput = z.object({
  activity_id: positiveId(WORK_NOT_OF_THE_DAY),
  excluded: z.boolean({ error: 'Excluded must be true or false.' }).default(false),
  comment: optionalText(DAILY_LOG_TEXT_MAX, 'Comment'),
});
export type WorkNote = z.output<typeof workNoteInput>;

/** PUT: any of the sections, and the notes on the day's work (all of them, replacing the ones before). */
export const dailyLogInput = z.object({
  ...sectionFields,
  work: z.array(workNoteInput).max(DAILY_LOG_WORK_MAX, `At most ${DAILY_LOG_WORK_MAX} rows in work.`).optional(),
});
export type DailyLogInput = z.input<typeof dailyLogInput>;
export type DailyLogSections = Omit<z.output<typeof dailyLogInput>, 'work'>;

/**
 * What a save (a PUT, read through `dailyLogInput`) does to a day's log, the one rule the server
 * writes by and the app shows a save waiting on the device by: each section it sends replaces the
 * stored one, those it leaves out stay; its notes on the day's work replace all the earlier ones,
 * keeping those that say something (left out of the log, or a comment).
 */
export function savedSections(input: DailyLogSections): Partial<DailyLogSections> {
  return Object.fromEntries(DAILY_LOG_SECTIONS.filter((section) => input[section] !== undefined).map((section) => [section, input[section]]));
}

/** The notes on the day's work a save keeps (savedSections): those that say something. */
export const savedWorkNotes = (notes: readonly WorkNote[]): WorkNote[] => notes.filter((note) => note.excluded || note.comment !== null);

const correctedSections = z
  .object(sectionFields, { error: CHANGES_REQUIRED })
  .refine((sections) => DAILY_LOG_SECTIONS.some((section) => sections[section] !== undefined), CHANGES_REQUIRED);

/**
 * What an amendment changed: said in words, or the corrected sections as they should read
 * (shown beside the original ones, which stay as signed).
 */
export const amendmentChanges = z
  .unknown()
  .transform((value, ctx) => {
    const parsed = typeof value === 'string' ? trimmed('Changes', DAILY_LOG_NOTES_MAX).safeParse(value) : correctedSections.safeParse(value ?? undefined);
    if (parsed.success) return parsed.data as string | DailyLogSections;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: value === undefined || value === null ? CHANGES_REQUIRED : issue.message, path: issue.path });
    return z.NEVER;
  })
  .meta({ description: 'What changed: a text, or an object of the corrected sections (weather, crew, equipment, deliveries, delays, incidents, visitors, notes)' });

export const amendmentInput = z.object({ reason: trimmed('Reason', DAILY_LOG_TEXT_MAX), changes: amendmentChanges });
export type AmendmentInput = z.input<typeof amendmentInput>;

/** Signing takes no body (an empty object is accepted): who signs and when are the server's to say. */
export const signDailyLogInput = z.object({}).nullish();

/** A person's own contribution to the day: hours they worked, a note, or both. */
export const dailyLogEntryInput = z
  .object({
    hours: measure('Hours', 0, 24).nullish().transform((value) => value ?? null),
    note: optionalText(DAILY_LOG_TEXT_MAX, 'Note'),
  })
  .refine((entry) => entry.hours !== null || entry.note !== null, { message: LOG_ENTRY_EMPTY, path: ['hours'] });
export type DailyLogEntryInput = z.input<typeof dailyLogEntryInput>;

export const projectDateParams = z.object({
  id: positiveId('The id in the path must be a whole number from 1 to 2147483647.'),
  date: dateField('Date'),
});
export const entryParams = projectDateParams.extend({ entryId: positiveId('The id in the path must be a whole number from 1 to 2147483647.') });
/** An entry or photo moved to this log from the day it was for, whose log was signed meanwhile: that day (records 123, 129). */
export const movedContributionQuery = z.object({ for_date: dateField('Date').optional() });
export const LOG_PHOTO_FOR_DATE_NOT_BEFORE = 'The day a moved photo was for must be before the day of the log it is added to.';
export const LOG_ENTRY_FOR_DATE_NOT_BEFORE = 'The day a moved entry was for must be before the day of the log it is added to.';
/** Why an entry or photo for `forDate` may not be added to the log of `logDate`: the day it was for comes before the log's own. */
export function forDateRefusal(part: 'entry' | 'photo', forDate: string | undefined, logDate: string): string | undefined {
  if (forDate === undefined || forDate < logDate) return undefined;
  return part === 'entry' ? LOG_ENTRY_FOR_DATE_NOT_BEFORE : LOG_PHOTO_FOR_DATE_NOT_BEFORE;
}
export const logAttachmentParams = projectDateParams.extend({ attachmentId: positiveId('The id in the path must be a whole number from 1 to 2147483647.') });

const rangeFields = { from: dateField('From').optional(), to: dateField('To').optional() };
const ordered = (range: { from?: string; to?: string }) => !range.from || !range.to || range.from <= range.to;

/** The list of a project's logs: a range of days (both ends optional), paged; as CSV or Excel the range's logs with totals. */
export const dailyLogListQuery = z
  .object({
    ...rangeFields,
    format: z
      .enum(EXPORT_FORMATS, { error: 'format must be json, csv or xlsx.' })
      .optional()
      .meta({ description: `csv or xlsx: the range's logs (limit and offset ignored, ${DAILY_LOG_DEFAULT_EXPORT_DAYS} days up to \`to\` without \`from\`, at most ${DAILY_LOG_EXPORT_MAX_DAYS}) with totals` }),
    ...pageParams(DAILY_LOGS_MAX_LIMIT),
  })
  .refine(ordered, { message: RANGE_START_AFTER_END, path: ['from'] });
export type DailyLogListQuery = z.input<typeof dailyLogListQuery>;

export const dailyLogRangeQuery = z.object(rangeFields).refine(ordered, { message: RANGE_START_AFTER_END, path: ['from'] });

export const dailyLogProjectsQuery = z.object({ search: searchParam('project name'), ...pageParams(DAILY_LOG_PROJECTS_MAX_LIMIT) });

export const missingLogsQuery = z.object({
  days: z.preprocess(
    (value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value),
    z
      .number({ error: `days must be a whole number from 1 to ${MISSING_LOGS_MAX_DAYS}.` })
      .int(`days must be a whole number from 1 to ${MISSING_LOGS_MAX_DAYS}.`)
      .min(1, `days must be a whole number from 1 to ${MISSING_LOGS_MAX_DAYS}.`)
      .max(MISSING_LOGS_MAX_DAYS, `days must be a whole number from 1 to ${MISSING_LOGS_MAX_DAYS}.`)
      .default(MISSING_LOGS_DEFAULT_DAYS),
  ),
  ...pageParams(DAILY_LOG_PROJECTS_MAX_LIMIT),
});

const person = z.object({ id: z.number(), email: z.string(), full_name: z.string().nullable() });

const weatherSchema = z.object({ conditions: z.string(), temperature: z.number().nullable(), wind: z.string().nullable(), precipitation: z.string().nullable(), work_stopped: z.boolean() });
const crewRowSchema = z.object({ trade: z.string(), company: z.string(), headcount: z.number(), hours: z.number() });
const equipmentRowSchema = z.object({ name: z.string(), hours: z.number().nullable() });
const deliveryRowSchema = z.object({ what: z.string(), from: z.string().nullable() });
const delayRowSchema = z.object({ cause: z.string(), hours_lost: z.number() });
const incidentRowSchema = z.object({ kind: z.enum(INCIDENT_KINDS), description: z.string() });
const visitorRowSchema = z.object({ name: z.string(), company: z.string().nullable(), purpose: z.string().nullable() });

const sectionsSchema = z.object({
  weather: weatherSchema.nullable(),
  crew: z.array(crewRowSchema),
  equipment: z.array(equipmentRowSchema),
  deliveries: z.array(deliveryRowSchema),
  delays: z.array(delayRowSchema),
  incidents: z.array(incidentRowSchema),
  visitors: z.array(visitorRowSchema),
  notes: z.string(),
});
export type DailyLogContent = z.infer<typeof sectionsSchema>;

export const dailyLogEntrySchema = z.object({
  id: z.number(),
  author: person,
  hours: z.number().nullable(),
  note: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The day it was for when it was moved here from that day's signed log (record 129), else null. */
  for_date: z.string().nullable(),
});
export type DailyLogEntry = z.infer<typeof dailyLogEntrySchema>;

/** A log's photo; `for_date` the day it was for when it was moved here from that day's log (record 123), else null. */
export const dailyLogAttachmentSchema = attachmentSchema.extend({ uploaded_by: person.nullable(), created_at: z.string(), for_date: z.string().nullable() });
export type DailyLogAttachment = z.infer<typeof dailyLogAttachmentSchema>;

/** What the record of work says happened to a subtask: its status changes that day, and its photos. */
export const WORK_KINDS = ['sent_for_approval', 'approved', 'declined', 'completed', 'photo'] as const;
export type WorkKind = (typeof WORK_KINDS)[number];

export const workItemSchema = z.object({
  /** The history entry it comes from (subtask activity): what the manager's notes name. */
  activity_id: z.number(),
  kind: z.enum(WORK_KINDS),
  at: z.string(),
  actor: person.nullable().meta({ description: 'Who did it, named as they are called now (a signed log keeps the e-mail it was signed with)' }),
  subtask: z.object({ id: z.number(), name: z.string(), major_task: z.object({ id: z.number(), name: z.string() }) }),
  /** What was said with the change (a note with the sending, a decline's reason), as the record has it. */
  note: z.string().nullable(),
  attachment: attachmentSchema.nullable(),
  /** The manager left it out of the log (the record keeps it). */
  excluded: z.boolean(),
  manager_comment: z.string().nullable(),
});
export type WorkItem = z.infer<typeof workItemSchema>;

export const amendmentSchema = z.object({
  id: z.number(),
  reason: z.string(),
  changes: z.union([z.string(), sectionsSchema.partial()]),
  author: person.nullable(),
  created_at: z.string(),
});
export type Amendment = z.infer<typeof amendmentSchema>;

export const dailyLogSummarySchema = z.object({
  date: z.string(),
  status: z.enum(DAILY_LOG_STATUSES),
  signed_by: person.nullable(),
  signed_at: z.string().nullable(),
  /** People on site: the crew rows' head counts and each person who logged hours themselves. */
  crew_headcount: z.number(),
  /** Man-hours: each crew row's head count × hours, and the hours people logged themselves. */
  crew_hours: z.number(),
  hours_lost: z.number(),
});
export type DailyLogSummary = z.infer<typeof dailyLogSummarySchema>;

export const dailyLogSchema = sectionsSchema.extend({
  project_id: z.number(),
  date: z.string(),
  /** `draft` also for a day nobody has opened yet (then `created_at` is null and nothing is stored). */
  status: z.enum(DAILY_LOG_STATUSES),
  entries: z.array(dailyLogEntrySchema),
  attachments: z.array(dailyLogAttachmentSchema),
  /** The day's record of work, built by the server (kept as it was when the log was signed, its people named as they are now). */
  work: z.array(workItemSchema),
  amendments: z.array(amendmentSchema),
  signed_by: person.nullable(),
  signed_at: z.string().nullable(),
  crew_headcount: z.number(),
  crew_hours: z.number(),
  hours_lost: z.number(),
  created_at: z.string().nullable(),
});
export type DailyLog = z.infer<typeof dailyLogSchema>;

/** A project whose logs the caller keeps or adds to, with its own "today". */
export const dailyLogProjectSchema = z.object({
  id: z.number(),
  name: z.string(),
  status: z.enum(PROJECT_STATUSES),
  manager: person.nullable(),
  today: z.string(),
  /** The caller writes, signs and amends its logs (its manager, an admin). */
  may_keep: z.boolean(),
  /** The caller adds their own hours, notes and photos (work in the project, or keeping its logs). */
  may_contribute: z.boolean(),
});
export type DailyLogProject = z.infer<typeof dailyLogProjectSchema>;

export const missingLogsSchema = z.object({
  project: z.object({ id: z.number(), name: z.string(), manager: person.nullable() }),
  today: z.string(),
  /** Working days (Monday to Friday, and any day someone opened a log) before today without a signed log, oldest first. */
  missing: z.array(z.string()),
});
export type MissingLogs = z.infer<typeof missingLogsSchema>;

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * The day's people and man-hours: each crew row's head count, and its head count × hours; each
 * person who logged hours themselves once, with their hours (the crew rows list the others).
 */
export function crewTotals(crew: readonly CrewRow[], entries: readonly { authorId: number; hours: number | null }[]): { headcount: number; hours: number } {
  const selfLogged = new Set(entries.filter((entry) => (entry.hours ?? 0) > 0).map((entry) => entry.authorId));
  const headcount = crew.reduce((sum, row) => sum + row.headcount, 0) + selfLogged.size;
  const hours = crew.reduce((sum, row) => sum + row.headcount * row.hours, 0) + entries.reduce((sum, entry) => sum + (entry.hours ?? 0), 0);
  return { headcount, hours: round2(hours) };
}

export const hoursLost = (delays: readonly DelayRow[]) => round2(delays.reduce((sum, delay) => sum + delay.hours_lost, 0));

/** A calendar date moved by whole days (`YYYY-MM-DD`, no time zone involved). */
export function shiftDate(date: string, days: number): string {
  const moved = new Date(`${date}T00:00:00Z`);
  moved.setUTCDate(moved.getUTCDate() + days);
  return moved.toISOString().slice(0, 10);
}

/** How many days from `from` to `to`, both counted. */
export const daysInRange = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** The days of a range, oldest first. */
export function datesOf(from: string, to: string): string[] {
  return Array.from({ length: Math.max(0, daysInRange(from, to)) }, (_, index) => shiftDate(from, index));
}

/** A range of days as asked, or why it is refused (the field it is refused on, the message): the server's rule, which the download form applies before asking. */
export type RangeCheck = { ok: true; from: string; to: string } | { ok: false; field: 'from' | 'to'; message: string };

/**
 * The days an export or a range's PDF covers: `to` defaults to the project's today and may not
 * pass it, `from` to `defaultDays` days up to `to`; at most `maxDays` days.
 */
export function exportRange(query: { from?: string; to?: string }, today: string, defaultDays: number, maxDays: number): RangeCheck {
  const to = query.to ?? today;
  const from = query.from ?? shiftDate(to, 1 - defaultDays);
  if (to > today) return { ok: false, field: 'to', message: FUTURE_LOG_DATE };
  if (from > to) return { ok: false, field: 'from', message: RANGE_START_AFTER_END };
  if (daysInRange(from, to) > maxDays) return { ok: false, field: 'from', message: rangeTooLong(maxDays) };
  return { ok: true, from, to };
}
