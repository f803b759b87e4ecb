import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, check, index, integer, pgEnum, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies } from './companies';

export const roleEnum = pgEnum('user_role', ['admin', 'manager', 'team_member']);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: roleEnum('role').notNull(),
    code: text('code').notNull(),
    fullName: text('full_name'),
    designation: text('designation'),
    mobileNumber: text('mobile_number'),
    managerId: integer('manager_id').references((): AnyPgColumn => users.id),
    // Set when an admin chooses the password: the web sends the user to change it before anything else.
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    /** What the user reads the product in: en, es, fr or de (messages in packages/shared). */
    language: text('language').notNull().default('en'),
    /**
     * Whether the user picked their language themselves (the profile, or signing their company up in
     * it). A new user starts in the company's language and takes their device's at their first
     * sign-in (apps/web/src/lib/language.ts); once chosen, the profile's language wins on every device.
     */
    languageChosen: boolean('language_chosen').notNull().default(false),
    /** The user's own IANA time zone; null: the company's. Their "today" and their reminders follow it. */
    timezone: text('timezone'),
    /** Notification e-mails: none, a daily digest at the start of their day, or each as it happens. */
    emailNotifications: text('email_notifications').notNull().default('daily'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    // Soft delete: the row stays so the history it touched keeps its names.
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('users_company_email_active_key')
      .on(table.companyId, sql`lower(${table.email})`)
      .where(sql`${table.deletedAt} is null`),
    uniqueIndex('users_company_code_key').on(table.companyId, table.code),
    index('users_company_role_idx').on(table.companyId, table.role),
    index('users_company_manager_idx').on(table.companyId, table.managerId),
    check('users_language_check', sql`${table.language} in ('en', 'es', 'fr', 'de')`),
    check('users_email_notifications_check', sql`${table.emailNotifications} in ('off', 'daily', 'immediate')`),
  ],
);

export const teamMembers = pgTable(
  'team_members',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull().unique().references(() => users.id),
    managerId: integer('manager_id').references(() => users.id),
    performanceScore: integer('performance_score').notNull().default(0),
  },
  (table) => [index('team_members_company_manager_idx').on(table.companyId, table.managerId)],
);
