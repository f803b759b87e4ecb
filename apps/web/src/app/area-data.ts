import type { QueryClient } from '@tanstack/react-query';
import { prefetchFirstOpenProjects } from '../features/projects/api/get-projects';
import { crewMayAddTo } from '../features/daily-logs/api/get-daily-log-projects';
import { prefetchOpeningLog } from '../features/daily-logs/api/prefetch-opening-log';
import { getTeamAppraisalQueryOptions } from '../features/reports/api/get-team-appraisal';
import { getPendingApprovalPagesQuery } from '../features/tasks/api/get-pending-approvals';
import { getSubtaskPagesQuery } from '../features/tasks/api/get-subtasks';
import { getTeamWorkloadQueryOptions } from '../features/users/api/get-team-workload';
import { searchPeopleQuery } from '../features/users/api/get-users';
import { prefetchPagedList } from '../lib/lists';

export type WorkBoard = 'manager' | 'team_member';

/** Answers younger than this are not asked for again. */
const FRESH_MS = 60_000;

/**
 * What each screen of a work area asks for as it opens (the same queries, so the same keys), asked
 * ahead after sign-in: the kept answers (features/offline) then open every screen of the area
 * without a signal, not only those visited. A failure here is no one's concern: the screen asks again.
 */
export function prefetchAreaData(queryClient: QueryClient, board: WorkBoard): Promise<unknown> {
  const work = [
    prefetchFirstOpenProjects(queryClient, FRESH_MS),
    prefetchPagedList(queryClient, getSubtaskPagesQuery({ assigned_to: 'me' })),
    queryClient.prefetchQuery({ ...searchPeopleQuery(''), staleTime: FRESH_MS }),
    prefetchOpeningLog(queryClient, board === 'manager' ? () => true : crewMayAddTo, FRESH_MS),
  ];
  if (board === 'manager') {
    work.push(
      prefetchPagedList(queryClient, getPendingApprovalPagesQuery()),
      queryClient.prefetchQuery({ ...getTeamWorkloadQueryOptions(), staleTime: FRESH_MS }),
      queryClient.prefetchQuery({ ...getTeamAppraisalQueryOptions({}), staleTime: FRESH_MS }),
    );
  }
  return Promise.allSettled(work);
}
