import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PinInput, Subtask } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { invalidateAfterSubtaskChange } from '../../../lib/query-keys';

/** Pins a subtask at a point of a sheet, moves its pin, or (null) unpins it. */
export function pinSubtask({ subtaskId, pin }: { subtaskId: number; pin: PinInput | null }) {
  return api<Subtask>(`/api/subtasks/${subtaskId}/`, { method: 'PATCH', body: { pin } });
}

export const usePinSubtask = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: pinSubtask, onSuccess: () => invalidateAfterSubtaskChange(queryClient) });
};
