import type { QueryClient } from '@tanstack/react-query';
import type { DailyLogProject } from '@siteboard/shared';
import { getDailyLogQueryOptions } from './get-daily-log';
import { getDailyLogProjectsQueryOptions } from './get-daily-log-projects';
import { getRecentLogsQueryOptions } from './get-daily-logs';

/**
 * Asks ahead for what the daily log screen opens with, no project or day in its address: the
 * person's projects, then the first of them it opens on (`opens`: the crew's screen skips those
 * they have no work in), that project's log of its today and its last two weeks. Without a signal
 * the screen then opens as it would with one, never visited before.
 */
export async function prefetchOpeningLog(queryClient: QueryClient, opens: (project: DailyLogProject) => boolean, staleTime: number) {
  const projects = getDailyLogProjectsQueryOptions('');
  await queryClient.prefetchQuery({ ...projects, staleTime });
  const project = queryClient.getQueryData(projects.queryKey)?.items.find(opens);
  if (!project) return;
  await Promise.all([
    queryClient.prefetchQuery({ ...getDailyLogQueryOptions(project.id, project.today), staleTime }),
    queryClient.prefetchQuery({ ...getRecentLogsQueryOptions(project), staleTime }),
  ]);
}
