import { z } from 'zod';
import { dateField, idListParam, optionalText, pageParams, positiveId, requiredText, searchParam, text, wholeNumberParam } from './common';
import { PRIORITIES, SUBTASK_CHANGE_ASIDES } from './subtask-values';
import { pinInput, subtaskPinSchema } from './sheets';

export const INVALID_ASSIGNEE = 'Select an active manager or team member of your company.';
export const SUBTASK_CHANGED_MEANWHILE = 'Someone else changed this subtask meanwhile. Look at it again, then decide.';

export const SUBTASK_STATUSES = ['ongoing', 'pending_approval', 'completed'] as const;
export const subtaskStatusSchema = z.enum(SUBTASK_STATUSES, { error: 'Status must be ongoing, pending_approval or completed.' });
export type SubtaskStatus = z.infer<typeof subtaskStatusSchema>;

export const prioritySchema = z.enum(PRIORITIES, { error: 'Priority must be low, medium or high.' });
export type Priority = z.infer<typeof prioritySchema>;

const person = z.object({ id: z.number(), email: z.string(), full_name: z.string().nullable() });
const projectRef = z.object({ id: z.number(), name: z.string(), status: z.enum(['planned', 'ongoing', 'completed']), manager_id: z.number().nullable() });

export const subtaskSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  status: subtaskStatusSchema,
  priority: prioritySchema,
  due_date: z.string().nullable(),
  assigned_to: person.nullable(),
  assigned_to_id: z.number().nullable(),
  /** The assignee's account was deleted while this work was theirs: lists mark it so someone takes it over. */
  assignee_left: z.boolean(),
  assigned_by: person.nullable(),
  major_task_id: z.number(),
  major_task: z.object({ id: z.number(), name: z.string(), project: projectRef }),
  created_at: z.string(),
  submitted_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  /** When completing its project closed this work unfinished (its status stays as it was); null while it is open or completed. Such work is on no to-do list. */
  closed_unfinished_at: z.string().nullable(),
  /** While a declined subtask is ongoing again: the reason its approver gave (null without one). */
  decline_reason: z.string().nullable(),
  /** While it waits for approval: the note its assignee sent it with (null without one). */
  submission_note: z.string().nullable(),
  /** Where the subtask is on a drawing's sheet (issue 43), or null. */
  pin: subtaskPinSchema.nullable(),
});
export type Subtask = z.infer<typeof subtaskSchema>;

export const majorTaskSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  due_date: z.string().nullable(),
  created_by: person.nullable(),
  created_at: z.string(),
  project: projectRef,
  project_id: z.number(),
  subtasks: z.array(subtaskSchema),
});
export type MajorTask = z.infer<typeof majorTaskSchema>;

/**
 * GET /api/projects/{id}/major-tasks/ (beside the spec's `?expand=major_tasks`): a major task
 * without its subtasks, which are counted instead. What a picker or an opened project lists, a page
 * at a time, however much work the project holds.
 */
export const majorTaskSummarySchema = majorTaskSchema.omit({ subtasks: true }).extend({
  /** All of its subtasks, by priority and completed: the dots and the progress of an opened project. */
  subtask_counts: z.object({ total: z.number().int(), completed: z.number().int(), low: z.number().int(), medium: z.number().int(), high: z.number().int() }),
});
export type MajorTaskSummary = z.infer<typeof majorTaskSummarySchema>;

/** The most major tasks one page of a project's list holds. */
export const MAJOR_TASKS_MAX_LIMIT = 100;

export const majorTaskListQuery = z.object({ search: searchParam('major task name'), ...pageParams(MAJOR_TASKS_MAX_LIMIT) });

/** The fields every new subtask needs, on the manager's and the team member's screens alike (spec §5). */
export const newSubtaskFields = z.object({
  name: requiredText('Title is required.').pipe(z.string().max(200, 'Title must be at most 200 characters.')),
  description: optionalText(5000, 'Description').transform((value) => value ?? ''),
  assigned_to_id: positiveId('Select an assignee.'),
  due_date: dateField('Due date'),
  priority: prioritySchema.default('medium'),
});

export const createMajorTaskInput = z.object({
  project_id: positiveId('Select a project.'),
  name: requiredText('Name is required.').pipe(z.string().max(200, 'Name must be at most 200 characters.')),
  description: optionalText(5000, 'Description').transform((value) => value ?? ''),
  /** Ignored: the due date is the latest of the subtasks' (spec §3). Accepted because the spec's client sends it. */
  due_date: text().nullish(),
  subtasks: z.array(newSubtaskFields, { error: 'Add at least one subtask.' }).min(1, 'Add at least one subtask.').max(100, 'At most 100 subtasks at once.'),
});
export type CreateMajorTaskInput = z.input<typeof createMajorTaskInput>;

/** The due date is not editable: it is always the latest of the subtasks' due dates (spec §3). */
export const updateMajorTaskInput = z
  .object({
    name: requiredText('Name is required.').pipe(z.string().max(200, 'Name must be at most 200 characters.')).optional(),
    description: optionalText(5000, 'Description').transform((value) => value ?? '').optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), 'Nothing to update.');
export type UpdateMajorTaskInput = z.input<typeof updateMajorTaskInput>;

export const createSubtaskInput = newSubtaskFields
  .extend({
    /** The spec's client names the parent `major_task`; `major_task_id` is accepted too. */
    major_task: positiveId('Select a major task.').optional(),
    major_task_id: positiveId('Select a major task.').optional(),
    status: subtaskStatusSchema.default('ongoing'),
    /** Pins the new subtask on a sheet of its project, in the same write: whoever may pin it once made (canMoveSubtaskPin). */
    pin: pinInput.optional(),
  })
  .refine((input) => input.major_task !== undefined || input.major_task_id !== undefined, {
    path: ['major_task'],
    message: 'Select a major task.',
    // Reported together with the other missing fields, not only once they are fixed.
    when: (payload) =>
      typeof payload.value === 'object' && payload.value !== null && !payload.issues.some((issue) => ['major_task', 'major_task_id'].includes(String(issue.path?.[0]))),
  });
export type CreateSubtaskInput = z.input<typeof createSubtaskInput>;

export const updateSubtaskInput = z
  .object({
    status: subtaskStatusSchema.optional(),
    /** Said with the change: a decline's reason, a note sent with a submission. Never a change by itself. */
    comment: text()
      .trim()
      .max(2000, 'Comment must be at most 2000 characters.')
      .optional()
      .transform((value) => value || undefined),
    name: requiredText('Title is required.').pipe(z.string().max(200, 'Title must be at most 200 characters.')).optional(),
    description: optionalText(5000, 'Description').transform((value) => value ?? '').optional(),
    priority: prioritySchema.optional(),
    due_date: dateField('Due date').optional(),
    assigned_to_id: positiveId('Select an assignee.').optional(),
    /** Pins the subtask on a sheet, moves its pin, or (null) unpins it. */
    pin: pinInput.nullable().optional(),
    /**
     * The status the caller saw: if the subtask is in another now (someone approved, declined or sent
     * it meanwhile), nothing changes and the answer is 409. Approve, decline and send say it.
     */
    expected_status: subtaskStatusSchema.optional(),
    /** The assignee the caller saw (null: nobody), with the same 409 when it is someone else now. */
    expected_assigned_to_id: positiveId('expected_assigned_to_id must be a user id or null.').nullable().optional(),
  })
  .refine((input) => Object.entries(input).some(([key, value]) => !SUBTASK_CHANGE_ASIDES.has(key) && value !== undefined), 'Nothing to update.');
export type UpdateSubtaskInput = z.input<typeof updateSubtaskInput>;

/** The most subtasks one page of a list holds. */
export const SUBTASKS_MAX_LIMIT = 100;

const PROJECT_STATUS_FILTER = /^(planned|ongoing|completed)(,(planned|ongoing|completed))*$/;

export const subtaskListQuery = z.object({
  /** `ongoing` or `ongoing,planned` in the spec's calls: a comma list of project statuses. */
  project_status: z
    .string()
    .regex(PROJECT_STATUS_FILTER, 'project_status must be a comma list of planned, ongoing, completed.')
    .transform((value) => value.split(',') as ('planned' | 'ongoing' | 'completed')[])
    .optional(),
  assigned_to: z
    .union([z.enum(['me', 'my_team']), positiveId('assigned_to must be "me", "my_team" or a user id.')], { error: 'assigned_to must be "me", "my_team" or a user id.' })
    .optional()
    .meta({ description: "me, a user id, or my_team: the subtasks of the caller's team members (a manager's team; nobody's for other roles)" }),
  status: subtaskStatusSchema.optional(),
  ...pageParams(SUBTASKS_MAX_LIMIT),
});

/** GET /api/projects/{id}/subtasks/: a project's subtasks, soonest due first, a page of them (its open ones: what a completed project closed is on no list). */
export const projectSubtaskListQuery = z.object({
  search: searchParam('subtask name'),
  major_task_id: positiveId('major_task_id must be a major task id.').optional().meta({ description: 'Only the subtasks of this major task of the project' }),
  pinned: z
    .enum(['true', 'false'], { error: 'pinned must be true or false.' })
    .transform((value) => value === 'true')
    .optional()
    .meta({ description: 'true: only those pinned on a drawing; false: only those on none (what a manager may still pin)' }),
  ...pageParams(SUBTASKS_MAX_LIMIT),
});

/** The most subtasks of each major task GET /api/projects/{id}/subtask-pages/ answers. */
export const SUBTASK_PAGES_MAX_LIMIT = 20;

/**
 * GET /api/projects/{id}/subtask-pages/: the first page of each of several major tasks' subtasks,
 * what an opened project shows under a page of its major tasks, in one request.
 */
export const subtaskPagesQuery = z.object({
  major_task_ids: idListParam('major_task_ids', 'major task ids', MAJOR_TASKS_MAX_LIMIT).meta({ description: `Major tasks of the project, comma separated (at most ${MAJOR_TASKS_MAX_LIMIT})` }),
  limit: wholeNumberParam('limit', 1, SUBTASK_PAGES_MAX_LIMIT)
    .default(SUBTASK_PAGES_MAX_LIMIT)
    .meta({ description: `At most this many subtasks of each major task, soonest due first (1–${SUBTASK_PAGES_MAX_LIMIT}, ${SUBTASK_PAGES_MAX_LIMIT} when not given)` }),
});

/** A major task's first subtasks and how many it has in all (the rest: GET /api/projects/{id}/subtasks/?major_task_id=…&offset=…). */
export const subtaskPageSchema = z.object({ major_task_id: z.number().int(), total: z.number().int(), subtasks: z.array(subtaskSchema) });
export type SubtaskPage = z.infer<typeof subtaskPageSchema>;

/** The dashboard lists (pending approvals, due today): all of them, or a page with its total. */
export const taskListQuery = z.object({ ...pageParams(SUBTASKS_MAX_LIMIT) });

/**
 * GET /api/dashboard-summary/ (beside the spec): the counts of a manager's or team member's
 * dashboard cards in one answer, each the total its list would report.
 */
export const dashboardSummarySchema = z.object({
  /** Projects not completed (planned or ongoing): the projects card. */
  ongoing_projects: z.number().int(),
  /** GET /api/tasks-due-today/'s total. */
  due_today: z.number().int(),
  /** A manager: GET /api/pending-approvals/'s total; a team member: their own subtasks awaiting approval. */
  pending: z.number().int(),
  /** GET /api/subtasks/?assigned_to=me's total. */
  mine: z.number().int(),
});
export type DashboardSummary = z.infer<typeof dashboardSummarySchema>;
