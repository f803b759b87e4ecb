import type { Subtask } from '@siteboard/shared';
import { apiPage } from '../../../lib/api-client';
import type { PagedListQuery } from '../../../lib/lists';
import { projectsQueryKey } from './get-projects';

/** An opened major task lists this many subtasks, then as many more on each "Show More". */
export const MAJOR_TASK_SUBTASK_PAGE_SIZE = 20;

/** A major task's subtasks a page at a time, soonest due first: fetched when it is opened, never with the project. */
export const getMajorTaskSubtaskPagesQuery = (majorTask: { id: number; project_id: number }): PagedListQuery<Subtask> => ({
  queryKey: [...projectsQueryKey, 'major-task-subtasks', majorTask.id],
  pageSize: MAJOR_TASK_SUBTASK_PAGE_SIZE,
  fetchPage: (page) => apiPage<Subtask>(`/api/projects/${majorTask.project_id}/subtasks/`, { query: { major_task_id: majorTask.id, ...page } }),
});
