import { date, index, integer, pgEnum, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from './companies';
import { users } from './users';

export const projectStatusEnum = pgEnum('project_status', ['planned', 'ongoing', 'completed']);

export const projects = pgTable(
  'projects',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    // Calendar dates stay strings end to end: no driver may shift them through a local midnight.
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    status: projectStatusEnum('status').notNull().default('ongoing'),
    managerId: integer('manager_id').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('projects_company_status_idx').on(table.companyId, table.status),
    index('projects_company_manager_idx').on(table.companyId, table.managerId),
  ],
);
