import type { QueryClient } from '@tanstack/react-query';
import type { Subtask, SubtaskPage } from '@siteboard/shared';
import { api, apiPage } from '../../../lib/api-client';
import type { PagedListQuery } from '../../../lib/lists';
import { projectsQueryKey } from './get-projects';

/** An opened major task lists this many subtasks, then as many more on each "Show More". */
export const MAJOR_TASK_SUBTASK_PAGE_SIZE = 20;

type MajorTaskRef = { id: number; project_id: number };

/** A major task's subtasks a page at a time, soonest due first: fetched when it is opened, never with the project. */
export const getMajorTaskSubtaskPagesQuery = (majorTask: MajorTaskRef): PagedListQuery<Subtask> => ({
  queryKey: [...projectsQueryKey, 'major-task-subtasks', majorTask.id],
  pageSize: MAJOR_TASK_SUBTASK_PAGE_SIZE,
  fetchPage: (page) => apiPage<Subtask>(`/api/projects/${majorTask.project_id}/subtasks/`, { query: { major_task_id: majorTask.id, ...page } }),
});

/**
 * The same pages for a major task shown open beside others (`listedWith`, the ids of a page of
 * the project's major tasks, its own among them): its first page comes in one request with theirs,
 * which every one of them asks for at once and shares, so a page of twenty major tasks is one
 * request, not twenty. "Show More" asks for its own next page.
 */
export function getListedMajorTaskSubtaskPagesQuery(queryClient: QueryClient, majorTask: MajorTaskRef, listedWith: number[]): PagedListQuery<Subtask> {
  const own = getMajorTaskSubtaskPagesQuery(majorTask);
  const firstPages = {
    queryKey: [...projectsQueryKey, 'subtask-pages', majorTask.project_id, listedWith],
    queryFn: () => api<SubtaskPage[]>(`/api/projects/${majorTask.project_id}/subtask-pages/`, { query: { major_task_ids: listedWith.join(','), limit: MAJOR_TASK_SUBTASK_PAGE_SIZE } }),
  };
  return {
    ...own,
    fetchPage: async (page) => {
      if (page.offset > 0) return own.fetchPage(page);
      // One of the page's major tasks deleted meanwhile makes the shared answer a 404 for all of them:
      // then each asks for its own page, and only the one that went says so.
      const first = await queryClient.fetchQuery(firstPages).then(
        (answers) => answers.find((answer) => answer.major_task_id === majorTask.id),
        () => undefined,
      );
      return first ? { items: first.subtasks, total: first.total } : own.fetchPage(page);
    },
  };
}
