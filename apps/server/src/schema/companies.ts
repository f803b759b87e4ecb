import { sql } from 'drizzle-orm';
import { check, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const companies = pgTable(
  'companies',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    timezone: text('timezone').notNull().default('UTC'),
    /** The language a new user of the company starts in. */
    defaultLanguage: text('default_language').notNull().default('en'),
    // Counter behind per-company user codes (ADM-0001, MGR-0002, TM-0003).
    userCodeSeq: integer('user_code_seq').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('companies_name_lower_key').on(sql`lower(${table.name})`),
    check('companies_default_language_check', sql`${table.defaultLanguage} in ('en', 'es', 'fr', 'de')`),
  ],
);
