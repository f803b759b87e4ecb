import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DailyLog } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';
import { dailyLogPath, getDailyLogQueryOptions } from './get-daily-log';

/** Signs the day's log: read-only from then on. */
export const signDailyLog = ({ projectId, date }: { projectId: number; date: string }) => api<DailyLog>(`${dailyLogPath(projectId, date)}sign/`, { method: 'POST' });

export const useSignDailyLog = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signDailyLog,
    onSuccess: (log, { projectId, date }) => {
      queryClient.setQueryData(getDailyLogQueryOptions(projectId, date).queryKey, log);
      return queryClient.invalidateQueries({ queryKey: queryRoots.dailyLogs });
    },
  });
};
