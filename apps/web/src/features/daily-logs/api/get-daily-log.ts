import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DailyLog } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

export const dailyLogPath = (projectId: number, date: string) => `/api/projects/${projectId}/daily-logs/${date}/`;

/** One day's whole log of a project (a day nobody opened is an empty draft with the day's work). */
export const getDailyLogQueryOptions = (projectId: number, date: string) =>
  queryOptions({ queryKey: [...queryRoots.dailyLogs, 'day', projectId, date], queryFn: () => api<DailyLog>(dailyLogPath(projectId, date)) });

export const useDailyLog = (projectId: number | null, date: string | null) =>
  useQuery({ ...getDailyLogQueryOptions(projectId ?? 0, date ?? ''), enabled: projectId !== null && date !== null });
