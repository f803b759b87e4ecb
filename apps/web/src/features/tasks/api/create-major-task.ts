import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { createMajorTaskInput, MajorTask } from '@siteboard/shared';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { invalidateAfterSubtaskChange } from '../../../lib/query-keys';

/** A major task with all its subtasks, created together or not at all. */
export const createMajorTask = (input: z.output<typeof createMajorTaskInput>) => api<MajorTask>('/api/major-tasks/', { method: 'POST', body: input });

export const useCreateMajorTask = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createMajorTask, onSuccess: () => invalidateAfterSubtaskChange(queryClient) });
};
