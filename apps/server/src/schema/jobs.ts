import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { companies } from './companies';

/**
 * Work that outlives a request (rendering a drawing, sending a mail), written in the transaction of
 * its cause and run once across instances by the platform's job runner (decision record 042).
 * `status`: queued → running → done, or back to queued with a later `run_at` after a failure, or
 * failed for good. A running job whose `locked_until` has passed belonged to an instance that died:
 * another takes it over.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    queue: text('queue').notNull(),
    /** The company the work is for (every tenant's rows carry it); null for the platform's own. */
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(8),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    /**
     * What a run did outside the database, recorded the moment it was done and whoever holds the
     * job then (the SMTP server accepted the mail): a later run of the job reads it and does not do
     * it again (decision record 114).
     */
    checkpoint: jsonb('checkpoint'),
    /** Enqueuing the same key twice makes one job. */
    dedupeKey: text('dedupe_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('jobs_due_idx').on(table.queue, table.runAt).where(sql`${table.status} in ('queued', 'running')`),
    index('jobs_company_status_idx').on(table.companyId, table.status),
    uniqueIndex('jobs_dedupe_key').on(table.dedupeKey),
  ],
);
