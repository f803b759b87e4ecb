import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies } from './companies';
import { users } from './users';

/**
 * A write's Idempotency-Key and the first answer it got, per user (decision records 031, 050). The
 * row is inserted in the write's own transaction and answered before it commits, so a committed row
 * always has its answer (`status_code` null only in a row of a server older than record 050).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    /**
     * The method and path the key was claimed for (`POST /api/subtasks/7/comments`): a refused
     * request is let past its route's guards only with a key of the same route (record 101).
     * Null in a row claimed before it was kept (a week at most).
     */
    target: text('target'),
    statusCode: integer('status_code'),
    contentType: text('content_type'),
    location: text('location'),
    body: text('body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('idempotency_keys_company_user_key').on(table.companyId, table.userId, table.key),
    index('idempotency_keys_created_at_idx').on(table.createdAt),
    // A user's keys newest first: past KEYS_PER_USER the oldest are forgotten as a new one is claimed (decision record 050).
    index('idempotency_keys_company_user_id_idx').on(table.companyId, table.userId, table.id),
  ],
);
