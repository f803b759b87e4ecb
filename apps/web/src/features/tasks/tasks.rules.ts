import { isOverdue, type Role, type Subtask } from '@siteboard/shared';
import { readerToday } from '../../lib/format';

/** How many subtasks a task list shows before "Show More". */
export const SUBTASK_PAGE_SIZE = 20;

export interface Viewer {
  id: number;
  role: Role;
}

/** The reader's own work first: overdue on top, then soonest due, undated last. */
export function bySoonestDue(a: Pick<Subtask, 'status' | 'due_date' | 'id'>, b: Pick<Subtask, 'status' | 'due_date' | 'id'>, today: string = readerToday()): number {
  const overdue = Number(isOverdue(b, today)) - Number(isOverdue(a, today));
  if (overdue !== 0) return overdue;
  if (a.due_date !== b.due_date) return a.due_date === null ? 1 : b.due_date === null ? -1 : a.due_date < b.due_date ? -1 : 1;
  return a.id - b.id;
}

/** Why a due date deserves a second look before it is saved (the server accepts it either way). */
export type DueDateConcern = { kind: 'past' } | { kind: 'beforeStart'; start: string } | { kind: 'afterEnd'; end: string };

/** A due date before today, or outside its project's start and end dates (when they are known). */
export function dueDateConcerns(dueDate: string, today: string, project: { start_date: string; end_date: string } | null): DueDateConcern[] {
  const concerns: DueDateConcern[] = [];
  if (dueDate < today) concerns.push({ kind: 'past' });
  if (project && dueDate < project.start_date) concerns.push({ kind: 'beforeStart', start: project.start_date });
  if (project && dueDate > project.end_date) concerns.push({ kind: 'afterEnd', end: project.end_date });
  return concerns;
}
