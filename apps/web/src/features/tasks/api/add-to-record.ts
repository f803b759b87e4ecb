import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ActivityEntry, Attachment } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { invalidateAfterSubtaskChange } from '../../../lib/query-keys';

/** A comment on a subtask by one of its parties; `subject` (the subtask's title) names it in the offline queue. */
export const addComment = ({ subtaskId, text, subject }: { subtaskId: number; text: string; subject?: string }) =>
  api<ActivityEntry>(`/api/subtasks/${subtaskId}/comments/`, { method: 'POST', body: { text }, queue: 'comment', queueSubject: subject });

/** One photo onto a subtask's record (multipart, field `file`); the photos picked together share `action`. */
export function uploadPhoto({ subtaskId, file, subject, action }: { subtaskId: number; file: Blob; subject?: string; action?: string }) {
  const form = new FormData();
  form.append('file', file, file instanceof File ? file.name : 'photo.jpg');
  return api<Attachment>(`/api/subtasks/${subtaskId}/attachments/`, { method: 'POST', body: form, queue: 'photo', queueSubject: subject, queueAction: action });
}

export const useAddComment = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: addComment, onSuccess: () => invalidateAfterSubtaskChange(queryClient) });
};

export const useUploadPhoto = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: uploadPhoto, onSuccess: () => invalidateAfterSubtaskChange(queryClient) });
};
