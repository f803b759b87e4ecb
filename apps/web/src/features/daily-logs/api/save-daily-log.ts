import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DailyLog, DailyLogInput } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';
import { dailyLogPath, getDailyLogQueryOptions } from './get-daily-log';

/**
 * The manager's sections and notes on the day's work (those sent replace the stored ones); without
 * a signal it waits in the offline queue (then it resolves to undefined), named there by the project.
 */
export const saveDailyLog = ({ projectId, date, input, subject }: { projectId: number; date: string; input: DailyLogInput; subject: string }) =>
  api<DailyLog | undefined>(dailyLogPath(projectId, date), { method: 'PUT', body: input, queue: 'dailyLog', queueSubject: subject });

export const useSaveDailyLog = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveDailyLog,
    onSuccess: (log, { projectId, date }) => {
      if (log === undefined) return;
      queryClient.setQueryData(getDailyLogQueryOptions(projectId, date).queryKey, log);
      return queryClient.invalidateQueries({ queryKey: [...queryRoots.dailyLogs, 'range', projectId] });
    },
  });
};
