import type { MajorTaskSummary } from '@siteboard/shared';
import { apiPage } from '../../../lib/api-client';
import { usePagedList, type ListSearch, type PagedListQuery, type PageWindow } from '../../../lib/lists';
import { projectsQueryKey } from './get-projects';

/** An opened project lists this many major tasks, then as many more on each "Show More"; a picker offers as many matches. */
export const MAJOR_TASK_PAGE_SIZE = 20;

/**
 * A page of the project's major tasks (oldest first) matching the search, each with its subtasks
 * counted, not listed: a project of thousands of subtasks opens in a few kilobytes.
 */
export const getProjectMajorTasks = (projectId: number, search: string, page: PageWindow) =>
  apiPage<MajorTaskSummary>(`/api/projects/${projectId}/major-tasks/`, { query: { search, limit: page.limit, offset: page.offset } });

/** Under the projects' root: a subtask's change (its counts) or a major task's reloads them. */
const majorTasksKey = (projectId: number) => [...projectsQueryKey, 'major-tasks', projectId];

export const getProjectMajorTaskPagesQuery = (projectId: number, search: string): PagedListQuery<MajorTaskSummary> => ({
  queryKey: [...majorTasksKey(projectId), 'pages', search],
  pageSize: MAJOR_TASK_PAGE_SIZE,
  fetchPage: (page) => getProjectMajorTasks(projectId, search, page),
});

export const useProjectMajorTaskPages = (projectId: number, search: string) => usePagedList(getProjectMajorTaskPagesQuery(projectId, search));

/** The first matches of a search among the project's major tasks, for a picker. */
export const searchProjectMajorTasksQuery =
  (projectId: number): ListSearch<MajorTaskSummary> =>
  (search) => ({
    queryKey: [...majorTasksKey(projectId), 'search', search],
    queryFn: () => getProjectMajorTasks(projectId, search, { limit: MAJOR_TASK_PAGE_SIZE, offset: 0 }),
  });
