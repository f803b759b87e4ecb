import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DailyLogEntry, DailyLogEntryInput } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';
import { dailyLogPath } from './get-daily-log';

/**
 * One's own hours and note on the day's log; without a signal it waits in the offline queue
 * (then it resolves to undefined), named there by the project.
 */
export const addLogEntry = ({ projectId, date, input, subject }: { projectId: number; date: string; input: DailyLogEntryInput; subject: string }) =>
  api<DailyLogEntry | undefined>(`${dailyLogPath(projectId, date)}entries/`, { method: 'POST', body: input, queue: 'logEntry', queueSubject: subject });

export const useAddLogEntry = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: addLogEntry, onSuccess: (entry) => (entry === undefined ? undefined : queryClient.invalidateQueries({ queryKey: queryRoots.dailyLogs })) });
};
