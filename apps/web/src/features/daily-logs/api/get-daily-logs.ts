import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DailyLogSummary } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** A project's logs of a range of days, oldest first, with their totals. */
export const getDailyLogsQueryOptions = (projectId: number, from: string, to: string) =>
  queryOptions({
    queryKey: [...queryRoots.dailyLogs, 'range', projectId, from, to],
    queryFn: () => api<DailyLogSummary[]>(`/api/projects/${projectId}/daily-logs/`, { query: { from, to } }),
  });

export const useDailyLogs = (projectId: number | null, from: string, to: string) => useQuery({ ...getDailyLogsQueryOptions(projectId ?? 0, from, to), enabled: projectId !== null });
