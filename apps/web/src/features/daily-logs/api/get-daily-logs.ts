import { queryOptions, useQuery } from '@tanstack/react-query';
import { shiftDate, type DailyLogProject, type DailyLogSummary } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** How many days, up to the project's today, the log screen shows at a glance. */
export const RECENT_DAYS = 14;

/** A project's logs of a range of days, oldest first, with their totals. */
export const getDailyLogsQueryOptions = (projectId: number, from: string, to: string) =>
  queryOptions({
    queryKey: [...queryRoots.dailyLogs, 'range', projectId, from, to],
    queryFn: () => api<DailyLogSummary[]>(`/api/projects/${projectId}/daily-logs/`, { query: { from, to } }),
  });

/** The project's logs of its last RECENT_DAYS days. */
export const getRecentLogsQueryOptions = (project: Pick<DailyLogProject, 'id' | 'today'>) => getDailyLogsQueryOptions(project.id, shiftDate(project.today, 1 - RECENT_DAYS), project.today);

export const useRecentLogs = (project: Pick<DailyLogProject, 'id' | 'today'>) => useQuery(getRecentLogsQueryOptions(project));
