import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PinInput, Subtask } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { invalidateAfterSubtaskChange } from '../../../lib/query-keys';
import { getSheetPinsQueryOptions, movePinInCache } from './get-sheet-pins';

/**
 * Pins a subtask at a point of a sheet, moves its pin, or (null) unpins it. Offline it waits in the
 * queue like any task change (then it resolves to undefined); `subject` names it there.
 */
export function pinSubtask({ subtaskId, pin, subject }: { subtaskId: number; pin: PinInput | null; subject?: string }) {
  return api<Subtask | undefined>(`/api/subtasks/${subtaskId}/`, { method: 'PATCH', body: { pin }, queue: 'statusChange', queueSubject: subject });
}

/**
 * A pin moved on its sheet shows at its new place at once: while the request is out, the sheet's
 * pins in the cache have it there (put back if the server refuses). Once the move waits in the
 * offline queue the cache holds the server's pins again and `useShownPins` (use-shown-pins.ts) draws the move over
 * them, for as long as it waits — a reload of the pins meanwhile cannot put the pin back, and a
 * refusal by the queue shows it where the server has it.
 */
export const usePinSubtask = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: pinSubtask,
    onMutate: async ({ subtaskId, pin }) => {
      if (!pin) return undefined;
      const { queryKey } = getSheetPinsQueryOptions(pin.sheet_id);
      await queryClient.cancelQueries({ queryKey });
      const before = queryClient.getQueryData(queryKey);
      movePinInCache(queryClient, pin.sheet_id, subtaskId, pin);
      return { queryKey, before };
    },
    onError: (_error, _input, context) => {
      if (context) queryClient.setQueryData(context.queryKey, context.before);
    },
    onSuccess: (answer, _input, context) => {
      if (answer !== undefined) return invalidateAfterSubtaskChange(queryClient);
      if (context) queryClient.setQueryData(context.queryKey, context.before);
    },
  });
};
