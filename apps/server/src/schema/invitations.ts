import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies } from './companies';
import { roleEnum, users } from './users';

/**
 * An admin's invitation of a person by e-mail (decision record 076). The link's token is stored
 * only as its SHA-256: the database alone (a backup, a leak) holds no working link. Accepted or
 * revoked invitations keep their row, so a used link answers 410 rather than 404.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: roleEnum('role').notNull(),
    fullName: text('full_name'),
    managerId: integer('manager_id').references(() => users.id),
    tokenHash: text('token_hash').notNull(),
    invitedBy: integer('invited_by').references(() => users.id),
    /** The job of the latest mail of its link (sent or resent): the pending list says when it was given up. No foreign key: finished jobs are swept. */
    mailJobId: bigint('mail_job_id', { mode: 'number' }),
    /** The invited person's language as the inviter chose it: their mail's, and theirs when they join (null: invited before it was asked, the company's). */
    language: text('language'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('invitations_token_hash_key').on(table.tokenHash),
    // One pending invitation per address and company: inviting again replaces the link (resend).
    uniqueIndex('invitations_company_email_pending_key')
      .on(table.companyId, sql`lower(${table.email})`)
      .where(sql`${table.acceptedAt} is null and ${table.revokedAt} is null`),
  ],
);

/** A forgotten password's single-use link, stored as the token's SHA-256; valid one hour. */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('password_resets_token_hash_key').on(table.tokenHash), index('password_resets_user_idx').on(table.userId)],
);
