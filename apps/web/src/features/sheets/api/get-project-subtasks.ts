import type { MajorTaskSummary, Subtask } from '@siteboard/shared';
import { apiPage } from '../../../lib/api-client';
import { usePagedList, type ListSearch } from '../../../lib/lists';
import { queryRoots } from '../../../lib/query-keys';

/** The pin picker lists this many of the project's subtasks, then as many more on each "Show More"; its major-task search offers as many. */
export const PIN_PICKER_PAGE_SIZE = 20;

/**
 * A page of the project's subtasks a manager may pin, matching what was typed, soonest due first:
 * only those on no sheet yet (`unpinned`), or any (a pinned one moves here). A page, never the
 * project's whole tree (1.75 MB for 2,255 subtasks).
 */
export const usePinCandidates = (projectId: number, search: string, unpinned: boolean, enabled: boolean) =>
  usePagedList(
    {
      // Under the subtasks' root: a subtask pinned or changed anywhere reloads them.
      queryKey: [...queryRoots.subtasks, 'pin-candidates', projectId, { search, unpinned }],
      pageSize: PIN_PICKER_PAGE_SIZE,
      fetchPage: (page) => apiPage<Subtask>(`/api/projects/${projectId}/subtasks/`, { query: { search, pinned: unpinned ? 'false' : undefined, ...page } }),
    },
    { enabled },
  );

/** The first of the project's major tasks matching what was typed: where a subtask made on a sheet goes. */
export const searchPinMajorTasksQuery =
  (projectId: number): ListSearch<MajorTaskSummary> =>
  (search) => ({
    queryKey: [...queryRoots.subtasks, 'pin-major-tasks', projectId, search],
    queryFn: () => apiPage<MajorTaskSummary>(`/api/projects/${projectId}/major-tasks/`, { query: { search, limit: PIN_PICKER_PAGE_SIZE } }),
  });
