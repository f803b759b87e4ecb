import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Subtask, SubtaskStatus, UpdateSubtaskInput } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { invalidateAfterSubtaskChange, patchSubtaskInCache } from '../../../lib/query-keys';

/** A change to a subtask; `subject` (its title) names the change in the offline queue, `action` the person's action it is part of. */
export type SubtaskUpdate = UpdateSubtaskInput & { id: number; subject?: string; action?: string };

/** Approve (completed), decline (ongoing), send for approval (pending_approval) or any other edit. Resolves to undefined when it waits in the offline queue. */
export const updateSubtask = ({ id, subject, action, ...input }: SubtaskUpdate) =>
  api<Subtask | undefined>(`/api/subtasks/${id}/`, { method: 'PATCH', body: input, queue: 'statusChange', queueSubject: subject, queueAction: action });

/**
 * A subtask's texts in a status, as the server names them: a decline's reason only while the
 * declined work is open again (ongoing), a sending's note only while it waits for approval.
 */
export const statusTexts = (status: SubtaskStatus, texts: { reason: string | null; note: string | null }): Pick<Subtask, 'decline_reason' | 'submission_note'> => ({
  decline_reason: status === 'ongoing' ? texts.reason : null,
  submission_note: status === 'pending_approval' ? texts.note : null,
});

/** The fields of a change that a cached subtask can show before the server has it (a new assignee is a person the cache may not hold). */
function shownAhead({ status, name, description, due_date, priority, comment }: UpdateSubtaskInput): Partial<Subtask> {
  const fields: Partial<Subtask> = Object.fromEntries(Object.entries({ status, name, description, due_date, priority }).filter(([, value]) => value !== undefined));
  // The comment of a status change is a decline's reason or a sending's note, as the server keeps it.
  return status === undefined ? fields : { ...fields, ...statusTexts(status, { reason: comment || null, note: comment || null }) };
}

export const useUpdateSubtask = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSubtask,
    // Sent: reload what it changed. Queued offline: show it as it will be; the queue reloads once it is sent.
    onSuccess: (answer, { id, subject: _subject, ...input }) => (answer === undefined ? patchSubtaskInCache(queryClient, id, shownAhead(input)) : invalidateAfterSubtaskChange(queryClient)),
  });
};
