import { queryOptions, useQuery } from '@tanstack/react-query';
import { DAILY_LOG_PROJECTS_MAX_LIMIT, type DailyLogProject } from '@siteboard/shared';
import { apiPage } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** The projects whose drawings the signed-in person may open: those they run, keep or have work in (the daily log's list). */
export const getDrawingProjectsQueryOptions = () =>
  queryOptions({
    queryKey: [...queryRoots.sheets, 'projects'],
    queryFn: () => apiPage<DailyLogProject>('/api/daily-logs/projects/', { query: { limit: DAILY_LOG_PROJECTS_MAX_LIMIT } }),
  });

export const useDrawingProjects = () => useQuery(getDrawingProjectsQueryOptions());
