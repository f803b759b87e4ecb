import { sql } from 'drizzle-orm';
import { date, index, integer, pgEnum, pgTable, real, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from './companies';
import { projects } from './projects';
import { sheets } from './sheets';
import { users } from './users';

export const subtaskStatusEnum = pgEnum('subtask_status', ['ongoing', 'pending_approval', 'completed']);
export const priorityEnum = pgEnum('subtask_priority', ['low', 'medium', 'high']);

export const majorTasks = pgTable(
  'major_tasks',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    projectId: integer('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    dueDate: date('due_date', { mode: 'string' }),
    createdById: integer('created_by_id').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // With the id: a manager's major tasks (through their projects) come from the index alone.
    index('major_tasks_company_project_id_idx').on(table.companyId, table.projectId, table.id),
    // Deleting a project cascades by project_id alone, which the composite index above cannot serve.
    index('major_tasks_project_idx').on(table.projectId),
  ],
);

export const subtasks = pgTable(
  'subtasks',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    majorTaskId: integer('major_task_id').notNull().references(() => majorTasks.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    assignedToId: integer('assigned_to_id').references(() => users.id),
    assignedById: integer('assigned_by_id').references(() => users.id),
    dueDate: date('due_date', { mode: 'string' }),
    status: subtaskStatusEnum('status').notNull().default('ongoing'),
    priority: priorityEnum('priority').notNull().default('medium'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** Where the subtask is on a drawing: a sheet and a point relative to its width and height (issue 43). */
    pinSheetId: integer('pin_sheet_id').references(() => sheets.id, { onDelete: 'set null' }),
    pinX: real('pin_x'),
    pinY: real('pin_y'),
    /**
     * When completing its project closed this work unfinished (it stays pending or ongoing, but
     * leaves every to-do list and count); null while it is open or completed (decision record 061).
     */
    closedUnfinishedAt: timestamp('closed_unfinished_at', { withTimezone: true }),
    /**
     * The calendar event's revision: raised, with `changed_at`, by triggers whenever what a calendar
     * shows of the subtask changes (name, due date, status, assignee, major task: migration 0036; the
     * names of its project, its major task and its assignee: 0038), so calendar apps replace the
     * event they have (RFC 5545 SEQUENCE and LAST-MODIFIED). Only the calendar feed reads either.
     */
    calendarSequence: integer('calendar_sequence').notNull().default(0),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // With the status: a manager's pending approvals read only the pending subtasks of their projects' major tasks.
    index('subtasks_company_major_task_status_idx').on(table.companyId, table.majorTaskId, table.status),
    // Everything the team workload and the appraisal counts read of a person's subtasks, so both are
    // index-only scans (no heap visit per subtask; the embedded database's maintenance keeps the
    // visibility map, decision record 015). Names are at most 200 characters.
    index('subtasks_company_assignee_status_covering_idx').on(
      table.companyId,
      table.assignedToId,
      table.status,
      table.dueDate,
      table.id,
      table.majorTaskId,
      table.completedAt,
      table.name,
    ),
    index('subtasks_company_status_due_idx').on(table.companyId, table.status, table.dueDate),
    index('subtasks_company_due_idx').on(table.companyId, table.dueDate),
    // Pending approvals and tasks due today look up what a manager assigned.
    index('subtasks_company_assigner_status_idx').on(table.companyId, table.assignedById, table.status),
    // Deleting a major task (or its project) cascades by major_task_id alone; with the due date, a
    // manager's tasks due today are found per major task without reading its other subtasks.
    index('subtasks_major_task_due_idx').on(table.majorTaskId, table.dueDate),
    // A sheet's pins; deleting a sheet unpins by it.
    index('subtasks_pin_sheet_idx').on(table.pinSheetId).where(sql`${table.pinSheetId} is not null`),
  ],
);
