import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DailyLogEntry, DailyLogEntryInput } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';
import { dailyLogPath } from './get-daily-log';

/** Changes one's own entry while the log is a draft. */
export const changeLogEntry = ({ projectId, date, entryId, input }: { projectId: number; date: string; entryId: number; input: DailyLogEntryInput }) =>
  api<DailyLogEntry>(`${dailyLogPath(projectId, date)}entries/${entryId}/`, { method: 'PATCH', body: input });

export const useChangeLogEntry = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: changeLogEntry, onSettled: () => queryClient.invalidateQueries({ queryKey: queryRoots.dailyLogs }) });
};
