import { z } from 'zod';
import { commaList, dateField, optionalText, pageParams, positiveId, requiredText, searchParam } from './common';
import { majorTaskSchema } from './tasks';
import { PROJECT_STATUSES } from './project-status';
import { companyRef } from './users';

export { isOngoingStatus, PROJECT_STATUSES, type ProjectStatus } from './project-status';
export const projectStatusSchema = z.enum(PROJECT_STATUSES, { error: 'Status must be planned, ongoing or completed.' });

export const END_BEFORE_START = 'End date cannot be before the start date.';
/** The 404 of a project that is not the caller's company's (or does not exist): every feature that looks one up says it. */
export const PROJECT_NOT_FOUND = 'Project not found.';

export const projectSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  status: projectStatusSchema,
  manager: z.object({ id: z.number(), email: z.string(), full_name: z.string().nullable() }).nullable(),
  company: companyRef,
  /** Ids, or with `?expand=major_tasks` the major tasks themselves with their subtasks. */
  major_tasks: z.array(z.union([z.number(), majorTaskSchema])),
});
export type Project = z.infer<typeof projectSchema>;
export type ExpandedProject = Omit<Project, 'major_tasks'> & { major_tasks: z.infer<typeof majorTaskSchema>[] };

export const PROJECTS_MAX_LIMIT = 100;

/**
 * An expanded project in a list carries at most this many major tasks (its oldest), each with at
 * most this many subtasks (the soonest due): a page of 100 projects stays bounded.
 * `GET /api/projects/{id}/?expand=major_tasks` answers one project with all of them.
 */
export const MAJOR_TASKS_PER_LISTED_PROJECT = 20;
export const SUBTASKS_PER_LISTED_MAJOR_TASK = 20;

const expandParam = z.literal('major_tasks', { error: 'expand must be major_tasks.' }).optional();

/** All optional: without any the answer is the company's first page of projects, as an array like the spec's call expects. */
export const projectListQuery = z.object({
  expand: expandParam,
  status: commaList('status', PROJECT_STATUSES)
    .optional()
    .meta({ description: 'Only projects with one of these statuses: the Ongoing tab asks for ongoing,planned' }),
  search: searchParam('project name'),
  order: z
    .enum(['oldest', 'newest'], { error: 'order must be oldest or newest.' })
    .optional()
    .meta({ description: 'oldest (the default) or newest first: a project just created heads a newest-first list' }),
  ...pageParams(PROJECTS_MAX_LIMIT),
});

export const projectQuery = z.object({ expand: expandParam });

const projectName = requiredText('Project name is required.').pipe(z.string().max(200, 'Project name must be at most 200 characters.'));

const projectDates = z.object({ start_date: dateField('Start date'), end_date: dateField('End date') });

export const createProjectInput = z
  .object({
    name: projectName,
    description: optionalText(5000, 'Description').transform((value) => value ?? ''),
    start_date: dateField('Start date'),
    end_date: dateField('End date'),
    manager_id: positiveId('Select a manager.'),
    status: projectStatusSchema,
    /** Sent by the spec's client; it must be the caller's own company. */
    company_id: positiveId('Company not found.').nullish(),
  })
  .refine((input) => input.end_date >= input.start_date, {
    path: ['end_date'],
    message: END_BEFORE_START,
    // Said beside the other fields' errors, not after they are mended: it needs only the two dates.
    when: (payload) => projectDates.safeParse(payload.value).success,
  });
export type CreateProjectInput = z.input<typeof createProjectInput>;

/** The spec's client sends the manager as `manager`; `manager_id` is accepted too. */
export const updateProjectInput = z
  .object({
    name: projectName.optional(),
    description: optionalText(5000, 'Description').transform((value) => value ?? '').optional(),
    start_date: dateField('Start date').optional(),
    end_date: dateField('End date').optional(),
    manager: positiveId('Select a manager.').optional(),
    manager_id: positiveId('Select a manager.').optional(),
    status: projectStatusSchema.optional(),
    /** Completing a project whose subtasks await approval closes them as completed; without this the answer is 409 (decision record 030). */
    confirm_open_work: z.boolean().optional(),
  })
  .refine(({ confirm_open_work: _confirm, ...input }) => Object.values(input).some((value) => value !== undefined), 'Nothing to update.');
export type UpdateProjectInput = z.input<typeof updateProjectInput>;
