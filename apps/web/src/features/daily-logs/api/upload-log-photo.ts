import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DailyLogAttachment } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';
import { dailyLogPath } from './get-daily-log';

/** One photo onto the day's log (multipart, field `file`); without a signal it waits in the offline queue. */
export function uploadLogPhoto({ projectId, date, file, subject }: { projectId: number; date: string; file: Blob; subject: string }) {
  const form = new FormData();
  form.append('file', file, file instanceof File ? file.name : 'photo.jpg');
  return api<DailyLogAttachment | undefined>(`${dailyLogPath(projectId, date)}attachments/`, { method: 'POST', body: form, queue: 'logPhoto', queueSubject: subject });
}

export const useUploadLogPhoto = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: uploadLogPhoto, onSuccess: (photo) => (photo === undefined ? undefined : queryClient.invalidateQueries({ queryKey: queryRoots.dailyLogs })) });
};
