import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Subtask, UpdateSubtaskInput } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { invalidateAfterSubtaskChange } from '../../../lib/query-keys';

/** Approve (completed), decline (ongoing), send for approval (pending_approval) or any other edit. */
export const updateSubtask = ({ id, ...input }: UpdateSubtaskInput & { id: number }) => api<Subtask>(`/api/subtasks/${id}/`, { method: 'PATCH', body: input, queue: 'statusChange' });

export const useUpdateSubtask = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateSubtask, onSuccess: () => invalidateAfterSubtaskChange(queryClient) });
};
