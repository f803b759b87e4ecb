import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';
import { dailyLogPath } from './get-daily-log';

/** Removes one's own entry while the log is a draft. */
export const deleteLogEntry = ({ projectId, date, entryId }: { projectId: number; date: string; entryId: number }) =>
  api<void>(`${dailyLogPath(projectId, date)}entries/${entryId}/`, { method: 'DELETE' });

export const useDeleteLogEntry = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteLogEntry, onSettled: () => queryClient.invalidateQueries({ queryKey: queryRoots.dailyLogs }) });
};
