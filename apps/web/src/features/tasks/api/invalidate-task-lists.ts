import type { QueryClient } from '@tanstack/react-query';
import { getPendingApprovalsQueryOptions } from './get-pending-approvals';
import { getSubtasksQueryOptions } from './get-subtasks';
import { getTasksDueTodayQueryOptions } from './get-tasks-due-today';

/** Any subtask written may enter or leave every task list, so each mutation reloads them all. */
export function invalidateTaskLists(queryClient: QueryClient) {
  return Promise.all(
    [getSubtasksQueryOptions(), getPendingApprovalsQueryOptions(), getTasksDueTodayQueryOptions()].map((options) =>
      queryClient.invalidateQueries({ queryKey: options.queryKey }),
    ),
  );
}
