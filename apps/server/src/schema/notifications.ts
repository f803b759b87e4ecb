import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies } from './companies';
import { subtasks } from './tasks';
import { users } from './users';

export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    /** The English text as written; readers get the text rendered from `type` and `params` in their language. */
    message: text('message').notNull(),
    /** What the message names (task, project, people, dates, reason): rendered per reader. */
    params: jsonb('params').$type<Record<string, string | number | null>>(),
    createdBy: text('created_by').notNull().default('System'),
    subtaskId: integer('subtask_id').references(() => subtasks.id, { onDelete: 'set null' }),
    // Set by the sweeps (e.g. "deadline_reminder:42:2026-11-23") so a second run inserts nothing.
    dedupeKey: text('dedupe_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('notifications_dedupe_key').on(table.dedupeKey),
    index('notifications_company_created_idx').on(table.companyId, table.createdAt),
    // Deleting subtasks sets this to null: without it, every deleted subtask read the whole table.
    index('notifications_subtask_idx').on(table.subtaskId).where(sql`${table.subtaskId} is not null`),
  ],
);

export const notificationRecipients = pgTable(
  'notification_recipients',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    notificationId: integer('notification_id').notNull().references(() => notifications.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull().references(() => users.id),
    isRead: boolean('is_read').notNull().default(false),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('notification_recipients_notification_user_key').on(table.notificationId, table.userId),
    // With the id: the newest first, ties on the time broken by the id, read in the list's own order
    // and stopped at the page (a batch of notifications shares its created_at, so without the id
    // PostgreSQL read and sorted the whole batch: 413 rows for a page of 200 on the large data).
    index('notification_recipients_user_created_id_idx').on(table.userId, table.createdAt, table.id),
    index('notification_recipients_user_unread_idx').on(table.userId, table.isRead),
  ],
);
