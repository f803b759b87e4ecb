/** A subtask's priorities, lowest first. Kept free of zod (like lists.ts): the dashboards' cards count by them in their first load. */
export const PRIORITIES = ['low', 'medium', 'high'] as const;
