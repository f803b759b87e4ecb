import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DailyLog, DailyLogInput } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';
import { dailyLogPath, getDailyLogQueryOptions } from './get-daily-log';

/** The manager's sections and notes on the day's work (those sent replace the stored ones). */
export const saveDailyLog = ({ projectId, date, input }: { projectId: number; date: string; input: DailyLogInput }) =>
  api<DailyLog>(dailyLogPath(projectId, date), { method: 'PUT', body: input });

export const useSaveDailyLog = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveDailyLog,
    onSuccess: (log, { projectId, date }) => {
      queryClient.setQueryData(getDailyLogQueryOptions(projectId, date).queryKey, log);
      return queryClient.invalidateQueries({ queryKey: [...queryRoots.dailyLogs, 'range', projectId] });
    },
  });
};
