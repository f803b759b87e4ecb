import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';
import { dailyLogPath } from './get-daily-log';

/** Removes one's own photo from the day's log while it is a draft. */
export const deleteLogPhoto = ({ projectId, date, attachmentId }: { projectId: number; date: string; attachmentId: number }) =>
  api<void>(`${dailyLogPath(projectId, date)}attachments/${attachmentId}/`, { method: 'DELETE' });

export const useDeleteLogPhoto = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteLogPhoto, onSettled: () => queryClient.invalidateQueries({ queryKey: queryRoots.dailyLogs }) });
};
