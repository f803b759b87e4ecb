import { sql } from 'drizzle-orm';
import { check, date, index, integer, jsonb, numeric, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { Amendment, DailyLogContent, WorkItem, WorkNote } from '@siteboard/shared';
import { bytea, photoFacts } from './activity';
import { companies } from './companies';
import { projects } from './projects';
import { users } from './users';

/**
 * A project's log of one day (its local date, decision record 080). The manager's sections are
 * JSON, written and read whole; a signed log's day's work is kept as it was at signing, so a
 * subtask deleted later does not change what was signed.
 */
export const dailyLogs = pgTable(
  'daily_logs',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    projectId: integer('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    // Calendar dates stay strings end to end.
    logDate: date('log_date', { mode: 'string' }).notNull(),
    status: text('status').$type<'draft' | 'signed'>().notNull().default('draft'),
    weather: jsonb('weather').$type<DailyLogContent['weather']>(),
    crew: jsonb('crew').$type<DailyLogContent['crew']>().notNull().default([]),
    equipment: jsonb('equipment').$type<DailyLogContent['equipment']>().notNull().default([]),
    deliveries: jsonb('deliveries').$type<DailyLogContent['deliveries']>().notNull().default([]),
    delays: jsonb('delays').$type<DailyLogContent['delays']>().notNull().default([]),
    incidents: jsonb('incidents').$type<DailyLogContent['incidents']>().notNull().default([]),
    visitors: jsonb('visitors').$type<DailyLogContent['visitors']>().notNull().default([]),
    notes: text('notes').notNull().default(''),
    /** The manager's notes on the day's work, by history entry id: left out, and what they said. */
    workNotes: jsonb('work_notes').$type<Record<string, Omit<WorkNote, 'activity_id'>>>().notNull().default({}),
    /** The day's work as it stood when the log was signed; null while it is a draft (built from the record on each read). */
    signedWork: jsonb('signed_work').$type<WorkItem[]>(),
    createdById: integer('created_by_id').references(() => users.id),
    signedById: integer('signed_by_id').references(() => users.id),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // One log per project and day; with the company first, a project's range of days is read from it.
    uniqueIndex('daily_logs_company_project_date_key').on(table.companyId, table.projectId, table.logDate),
    // Deleting a project cascades by project_id alone.
    index('daily_logs_project_idx').on(table.projectId),
    check('daily_logs_status_check', sql`${table.status} in ('draft', 'signed')`),
    check('daily_logs_signed_check', sql`(${table.status} = 'signed') = (${table.signedAt} is not null)`),
  ],
);

/** A person's own contribution to a day: hours, a note. Editable by them until the log is signed. */
export const dailyLogEntries = pgTable(
  'daily_log_entries',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    dailyLogId: integer('daily_log_id').notNull().references(() => dailyLogs.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').notNull().references(() => users.id),
    hours: numeric('hours', { precision: 4, scale: 2, mode: 'number' }),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** The day an entry moved here from a signed log was for (as a photo's, record 123); null: this log's own day. */
    forDate: date('for_date', { mode: 'string' }),
  },
  (table) => [index('daily_log_entries_log_idx').on(table.dailyLogId, table.id)],
);

/** A photo of the day's log: its facts. The bytes live in `daily_log_attachment_data`, which no list reads. */
export const dailyLogAttachments = pgTable(
  'daily_log_attachments',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    dailyLogId: integer('daily_log_id').notNull().references(() => dailyLogs.id, { onDelete: 'cascade' }),
    uploadedById: integer('uploaded_by_id').references(() => users.id),
    ...photoFacts(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The day a photo moved here from a signed log was for (record 123); null: this log's own day. */
    forDate: date('for_date', { mode: 'string' }),
  },
  (table) => [index('daily_log_attachments_log_idx').on(table.dailyLogId, table.id)],
);

export const dailyLogAttachmentData = pgTable('daily_log_attachment_data', {
  attachmentId: integer('attachment_id')
    .primaryKey()
    .references(() => dailyLogAttachments.id, { onDelete: 'cascade' }),
  image: bytea('image').notNull(),
  thumbnail: bytea('thumbnail').notNull(),
});

/** A correction of a signed log: why, what changed, who, when. Never edited; the log itself stays as signed. */
export const dailyLogAmendments = pgTable(
  'daily_log_amendments',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    dailyLogId: integer('daily_log_id').notNull().references(() => dailyLogs.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id),
    reason: text('reason').notNull(),
    changes: jsonb('changes').$type<Amendment['changes']>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('daily_log_amendments_log_idx').on(table.dailyLogId, table.id)],
);
