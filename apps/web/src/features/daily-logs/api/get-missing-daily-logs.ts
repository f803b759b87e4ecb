import { queryOptions, useQuery } from '@tanstack/react-query';
import { DAILY_LOG_PROJECTS_MAX_LIMIT, type MissingLogs } from '@siteboard/shared';
import { apiPage } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** For an admin: the open projects with working days of the last `days` that have no signed log. */
export const getMissingDailyLogsQueryOptions = (days: number) =>
  queryOptions({
    queryKey: [...queryRoots.dailyLogs, 'missing', days],
    queryFn: () => apiPage<MissingLogs>('/api/daily-logs/missing/', { query: { days, limit: DAILY_LOG_PROJECTS_MAX_LIMIT } }),
  });

export const useMissingDailyLogs = (days: number, staleTime?: number) => useQuery({ ...getMissingDailyLogsQueryOptions(days), staleTime });
