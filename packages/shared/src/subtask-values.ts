/**
 * Values a subtask's lists and buttons read: kept free of zod (like lists.ts), since the dashboards'
 * cards and lists show them in their first load (decision record 095). The schemas import them from here.
 */

/** A subtask's priorities, lowest first. */
export const PRIORITIES = ['low', 'medium', 'high'] as const;

/** What a subtask's change says beside its fields: words said with it, and what the caller saw (a condition, no change). */
export const SUBTASK_CHANGE_ASIDES: ReadonlySet<string> = new Set(['comment', 'expected_status', 'expected_assigned_to_id']);

/** The longest comment (and decline reason, and sending note) a subtask takes. */
export const COMMENT_MAX = 2000;

/**
 * Overdue, on every side: not completed, still open (a completed project did not close it
 * unfinished, decision record 061) and due before `today`, the viewer's date in their own zone
 * (clock.ts). Dates are `YYYY-MM-DD`, so they compare in calendar order. The SQL that counts or
 * finds overdue work (reports, the overdue sweep, the digest) states this same rule.
 */
export function isOverdue(work: { status: string; due_date: string | null; closed_unfinished_at?: string | null }, today: string): boolean {
  return work.status !== 'completed' && !work.closed_unfinished_at && work.due_date !== null && work.due_date < today;
}
