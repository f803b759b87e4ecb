import { index, integer, pgEnum, pgTable, serial, text, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { companies } from './companies';
import { projects } from './projects';
import { users } from './users';

export const sheetStatusEnum = pgEnum('sheet_status', ['processing', 'ready', 'failed']);
export const sheetSourceEnum = pgEnum('sheet_source', ['pdf', 'image']);

/**
 * A drawing's sheet (issue 43): one page of an uploaded PDF or one image. Its tiles and preview
 * are files under the server's data directory (`sheets/<id>/`), never rows: lists read none of it.
 * A new version is a new row of the same `version_group_id` (the first version's id).
 */
export const sheets = pgTable(
  'sheets',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    projectId: integer('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    versionGroupId: integer('version_group_id').references((): AnyPgColumn => sheets.id, { onDelete: 'cascade' }),
    version: integer('version').notNull().default(1),
    name: text('name').notNull(),
    pageNumber: integer('page_number').notNull().default(1),
    status: sheetStatusEnum('status').notNull().default('processing'),
    /** Why it failed: an English text of the catalog, translated when read. */
    failure: text('failure'),
    source: sheetSourceEnum('source').notNull(),
    /** The uploaded file while pages of it are still rendering (removed once none is). */
    sourcePath: text('source_path'),
    width: integer('width'),
    height: integer('height'),
    maxLevel: integer('max_level'),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('sheets_company_project_idx').on(table.companyId, table.projectId, table.id),
    index('sheets_version_group_idx').on(table.versionGroupId),
    // Deleting a project deletes its sheets by project alone.
    index('sheets_project_idx').on(table.projectId),
  ],
);
