import type { QueryClient } from '@tanstack/react-query';
import { pendingApprovalsQueryKey } from './get-pending-approvals';
import { subtasksQueryKey } from './get-subtasks';
import { tasksDueTodayQueryKey } from './get-tasks-due-today';

/** The keys every task list starts with: any subtask written may enter or leave each of them. */
export const TASK_LIST_KEYS = [subtasksQueryKey, pendingApprovalsQueryKey, tasksDueTodayQueryKey];

/** Reloads every task list, each loaded page of it included. */
export function invalidateTaskLists(queryClient: QueryClient) {
  return Promise.all(TASK_LIST_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
