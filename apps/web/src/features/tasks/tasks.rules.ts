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

/**
 * The server's approver rule: a manager who manages the subtask's project or assigned it may set
 * any status. Anyone else would get a 403, so they are not offered the dropdown.
 */
export function canDecideSubtask(viewer: Viewer, subtask: Pick<Subtask, 'assigned_by'>, projectManagerId: number | null | undefined): boolean {
  return viewer.role === 'manager' && (projectManagerId === viewer.id || subtask.assigned_by?.id === viewer.id);
}

/** Spec §4: the assignee sends an ongoing subtask for approval unless its project is completed. */
export function canSendForApproval(viewer: Viewer, subtask: Pick<Subtask, 'status' | 'assigned_to'> & { major_task?: { project?: { status?: string } | null } | null }): boolean {
  return viewer.role === 'team_member' && subtask.assigned_to?.id === viewer.id && subtask.status === 'ongoing' && subtask.major_task?.project?.status !== 'completed';
}
