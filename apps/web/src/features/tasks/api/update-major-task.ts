import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MajorTask, UpdateMajorTaskInput } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { invalidateAfterSubtaskChange } from '../../../lib/query-keys';

/** Renames or describes a major task (its due date follows its subtasks'). */
export const updateMajorTask = ({ id, input }: { id: number; input: UpdateMajorTaskInput }) => api<MajorTask>(`/api/major-tasks/${id}/`, { method: 'PATCH', body: input });

export const useUpdateMajorTask = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateMajorTask, onSuccess: () => invalidateAfterSubtaskChange(queryClient) });
};
