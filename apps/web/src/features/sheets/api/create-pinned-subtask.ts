import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Subtask } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { invalidateAfterSubtaskChange } from '../../../lib/query-keys';

export interface NewPinnedSubtask {
  majorTaskId: number;
  name: string;
  assignedToId: number;
  dueDate: string;
  pin: { sheet_id: number; x: number; y: number };
}

/**
 * A new subtask where the manager tapped the sheet, pinned there in the same write: a pin the server
 * cannot place makes no subtask, so trying again never makes a second one.
 */
export function createPinnedSubtask(input: NewPinnedSubtask) {
  return api<Subtask>('/api/subtasks/', {
    method: 'POST',
    body: { major_task_id: input.majorTaskId, name: input.name, assigned_to_id: input.assignedToId, due_date: input.dueDate, priority: 'medium', pin: input.pin },
  });
}

export const useCreatePinnedSubtask = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createPinnedSubtask, onSettled: () => invalidateAfterSubtaskChange(queryClient) });
};
