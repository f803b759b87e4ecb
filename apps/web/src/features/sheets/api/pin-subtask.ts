import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PinInput, Subtask } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { invalidateAfterSubtaskChange } from '../../../lib/query-keys';

/**
 * Pins a subtask at a point of a sheet, moves its pin, or (null) unpins it. Offline it waits in the
 * queue like any task change (then it resolves to undefined); `subject` names it there.
 */
export function pinSubtask({ subtaskId, pin, subject }: { subtaskId: number; pin: PinInput | null; subject?: string }) {
  return api<Subtask | undefined>(`/api/subtasks/${subtaskId}/`, { method: 'PATCH', body: { pin }, queue: 'statusChange', queueSubject: subject });
}

export const usePinSubtask = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: pinSubtask, onSuccess: () => invalidateAfterSubtaskChange(queryClient) });
};
