import { sql } from 'drizzle-orm';
import { customType, index, integer, jsonb, pgEnum, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from './companies';
import { subtasks, subtaskStatusEnum } from './tasks';
import { users } from './users';

export const activityTypeEnum = pgEnum('activity_type', ['created', 'edited', 'status_changed', 'comment', 'attachment', 'closed_unfinished', 'reopened']);

/** bytea: written as a binary parameter, read as base64 text through PostgreSQL's encode (activity.queries.ts). */
export const bytea = customType<{ data: string }>({ dataType: () => 'bytea' });

/** What is kept of a photo beside its bytes: its type, size in bytes and pixels (subtask and daily-log photos alike). */
export const photoFacts = () => ({
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
});

/**
 * A photo's facts: what lists of a subtask's history read. Its bytes live in `attachment_data`,
 * so no statement that reads attachments for a list touches them.
 */
export const subtaskAttachments = pgTable(
  'subtask_attachments',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    subtaskId: integer('subtask_id').notNull().references(() => subtasks.id, { onDelete: 'cascade' }),
    uploadedById: integer('uploaded_by_id').references(() => users.id),
    ...photoFacts(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('subtask_attachments_subtask_idx').on(table.subtaskId)],
);

/** The re-encoded image and its thumbnail, read only when someone opens one. */
export const attachmentData = pgTable('attachment_data', {
  attachmentId: integer('attachment_id')
    .primaryKey()
    .references(() => subtaskAttachments.id, { onDelete: 'cascade' }),
  image: bytea('image').notNull(),
  thumbnail: bytea('thumbnail').notNull(),
});

/**
 * The history of a subtask, one row per change, written in the change's own transaction: the
 * timeline, the audit trail and the source of the appraisal's approval figures.
 */
export const subtaskActivity = pgTable(
  'subtask_activity',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    subtaskId: integer('subtask_id').notNull().references(() => subtasks.id, { onDelete: 'cascade' }),
    // Null once nobody is known (a sweep); a deleted user's rows keep them (soft delete).
    actorId: integer('actor_id').references(() => users.id),
    type: activityTypeEnum('type').notNull(),
    fromStatus: subtaskStatusEnum('from_status'),
    toStatus: subtaskStatusEnum('to_status'),
    /** A comment's text, or the note or reason given with a status change. */
    text: text('text'),
    /** An edit's changed fields: `{field: {from, to}}`. */
    changes: jsonb('changes').$type<Record<string, { from: unknown; to: unknown }>>(),
    attachmentId: integer('attachment_id').references(() => subtaskAttachments.id, { onDelete: 'cascade' }),
    /** When it arrived: the server's clock, never rewritten. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * When the person did it, as their device said with a write sent later (X-Done-At, decision
     * record 109); null when it arrived as it was done.
     */
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  // A subtask's timeline in order; the appraisal's approval figures read the same rows by subtask.
  (table) => [
    index('subtask_activity_subtask_idx').on(table.subtaskId, table.id),
    // Removing a photo (or its subtask) deletes its lines: without it, each photo read every line of history.
    index('subtask_activity_attachment_idx').on(table.attachmentId).where(sql`${table.attachmentId} is not null`),
  ],
);
