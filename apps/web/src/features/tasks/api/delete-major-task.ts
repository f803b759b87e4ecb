import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateAfterSubtaskChange } from '../../../lib/query-keys';

/** Deletes a major task with its subtasks: every list they stood in loads afresh. */
export const deleteMajorTask = (id: number) => api<void>(`/api/major-tasks/${id}/`, { method: 'DELETE' });

export const useDeleteMajorTask = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteMajorTask, onSettled: () => invalidateAfterSubtaskChange(queryClient) });
};
