import { queryOptions, useQuery } from '@tanstack/react-query';
import { DAILY_LOG_PROJECTS_MAX_LIMIT, type DailyLogProject } from '@siteboard/shared';
import { apiPage } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** The projects whose logs the signed-in person keeps or adds to, each with its own today (a page, searched by name). */
export const getDailyLogProjectsQueryOptions = (search: string) =>
  queryOptions({
    queryKey: [...queryRoots.dailyLogs, 'projects', search],
    queryFn: () => apiPage<DailyLogProject>('/api/daily-logs/projects/', { query: { search, limit: DAILY_LOG_PROJECTS_MAX_LIMIT } }),
  });

export const useDailyLogProjects = (search: string) => useQuery(getDailyLogProjectsQueryOptions(search));

/** The projects the crew's log screen offers: those they have work in (their hours and photos go there). */
export const crewMayAddTo = (project: DailyLogProject) => project.may_contribute;
