/**
 * Values a subtask's lists and buttons read: kept free of zod (like lists.ts), since the dashboards'
 * cards and lists show them in their first load (decision record 095). The schemas import them from here.
 */

/** A subtask's priorities, lowest first. */
export const PRIORITIES = ['low', 'medium', 'high'] as const;

/** The longest comment (and decline reason, and sending note) a subtask takes. */
export const COMMENT_MAX = 2000;
