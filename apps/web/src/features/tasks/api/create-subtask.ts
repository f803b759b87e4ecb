import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { createSubtaskInput, Subtask } from '@siteboard/shared';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { invalidateAfterSubtaskChange } from '../../../lib/query-keys';

export const createSubtask = (input: z.output<typeof createSubtaskInput>) => api<Subtask>('/api/subtasks/', { method: 'POST', body: input, queue: 'newSubtask', queueSubject: input.name });

export const useCreateSubtask = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createSubtask, onSuccess: () => invalidateAfterSubtaskChange(queryClient) });
};
