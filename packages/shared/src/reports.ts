import { z } from 'zod';
import { DATE_DOCUMENT, dateField, pageParams, positiveId, text } from './common';
import { roleSchema } from './users';

/** One person's appraisal: their subtasks due in the requested range, counted by state. */
export const appraisalItemSchema = z.object({
  user_id: z.number(),
  /** Users have no separate name: the report names them by e-mail. */
  name: z.string(),
  /** The person's full name (null without one): what screens show, the e-mail beside or in its place. */
  full_name: z.string().nullable(),
  code: z.string(),
  role: roleSchema,
  /** round(100 × completed / total); 0 when the person has no tasks in the range. */
  efficiency_score: z.number().int().min(0).max(100),
  total_tasks: z.number().int(),
  completed_tasks: z.number().int(),
  ongoing_tasks: z.number().int(),
  pending_approval_tasks: z.number().int(),
  /** Left unfinished when their project was completed (still ongoing or pending approval, but closed): counted in none of the other states and never overdue. */
  closed_unfinished_tasks: z.number().int(),
  /** Not completed, not closed unfinished, and due before today in the company's time zone; these are also counted as ongoing or pending approval. */
  overdue_tasks: z.number().int(),
  /** Of the completed subtasks with a due date, the percentage completed on or before it (company's calendar); null with none. */
  on_time_completion_rate: z.number().int().min(0).max(100).nullable(),
  /** Of the approved subtasks, the percentage approved without any decline; null with none approved. */
  first_pass_approval_rate: z.number().int().min(0).max(100).nullable(),
  /** How many times an approver declined one of the person's subtasks. */
  declines_received: z.number().int(),
  /** The median hours from sending a subtask for approval to the approver's decision; null with no decision. */
  median_decision_hours: z.number().nullable(),
});
export type AppraisalItem = z.infer<typeof appraisalItemSchema>;

export const RANGE_OUT_OF_ORDER = 'Start date must be on or before the end date.';
const SELECT_USER = 'Select a user.';

const userId = positiveId(SELECT_USER);

/** A blank query value (`?start_date=`) is how a form sends "not chosen": it means the same as leaving the key out. */
const blankAsMissing = () => text().optional().transform((value) => value || undefined);

const optionalDate = (label: string) =>
  blankAsMissing()
    .pipe(dateField(label).optional())
    .meta({ description: `${label}, YYYY-MM-DD, inclusive; blank is the same as not given`, anyOf: [{ type: 'string', enum: [''] }, DATE_DOCUMENT] });

const rangeShape = { start_date: optionalDate('Start date'), end_date: optionalDate('End date') };
const rangeInOrder = (query: { start_date?: string; end_date?: string }) => !query.start_date || !query.end_date || query.start_date <= query.end_date;

/** `GET /api/appraisal-report/` and `/api/generate-appraisal-pdf/`: one person, an optional inclusive range of due dates. */
export const appraisalQuery = z
  .object({ user_id: userId, ...rangeShape })
  .refine(rangeInOrder, { message: RANGE_OUT_OF_ORDER, path: ['end_date'] });
export type AppraisalQuery = z.output<typeof appraisalQuery>;

/** The most people one page of the team appraisal holds: more than any manager's team. */
export const APPRAISALS_MAX_LIMIT = 200;

/** `GET /projects/api/manager-appraisal-report/`: the caller's team (a manager) or company (an admin), or one person of it. */
export const managerAppraisalQuery = z
  .object({ user_id: z.preprocess((value) => (value === '' ? undefined : value), userId.optional()), ...rangeShape, ...pageParams(APPRAISALS_MAX_LIMIT) })
  .refine(rangeInOrder, { message: RANGE_OUT_OF_ORDER, path: ['end_date'] });
export type ManagerAppraisalQuery = z.output<typeof managerAppraisalQuery>;

/** The median wait for a decision is given to a tenth of an hour (six minutes). */
export const MEDIAN_HOURS_STEP = 0.1;

/**
 * How a median wait for a decision reads: a decision within three minutes rounds to 0, which read
 * as "0.0 h" beside decisions that were made; it reads "under 0.1 h" (`under`, with the step as
 * the value to write). Both the screen and the PDF say it so.
 */
export function shownDecisionHours(hours: number): { under: boolean; value: number } {
  return hours < MEDIAN_HOURS_STEP ? { under: true, value: MEDIAN_HOURS_STEP } : { under: false, value: hours };
}
