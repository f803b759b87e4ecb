import { PRIORITIES, type Priority, type Role, type Subtask } from '@siteboard/shared';

/** How many subtasks a task list shows before "Show More". */
export const SUBTASK_PAGE_SIZE = 20;

export interface Viewer {
  id: number;
  role: Role;
}

/** How many subtasks of each priority, for the coloured dots of a major task. */
export function priorityCounts(subtasks: readonly Pick<Subtask, 'priority'>[]): Record<Priority, number> {
  const counts = Object.fromEntries(PRIORITIES.map((priority) => [priority, 0])) as Record<Priority, number>;
  for (const subtask of subtasks) counts[subtask.priority] += 1;
  return counts;
}

/** "Progress: completed/total". */
export function progressOf(subtasks: readonly Pick<Subtask, 'status'>[]): { completed: number; total: number } {
  return { completed: subtasks.filter((subtask) => subtask.status === 'completed').length, total: subtasks.length };
}

/** Today on the reader's calendar, `YYYY-MM-DD`: the earliest due date a new subtask may have unless its project's manager creates it. */
export function localToday(now: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
