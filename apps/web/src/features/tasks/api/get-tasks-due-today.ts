import type { Subtask } from '@siteboard/shared';
import { apiPage } from '../../../lib/api-client';
import { usePagedList, type PagedListQuery } from '../../../lib/lists';
import { SUBTASK_PAGE_SIZE } from '../tasks.rules';

export const tasksDueTodayQueryKey = ['tasks-due-today'] as const;

/** Subtasks not completed and due today in the company's time zone, a page at a time. */
export const getTasksDueTodayPagesQuery = (): PagedListQuery<Subtask> => ({
  queryKey: [...tasksDueTodayQueryKey, 'pages'],
  pageSize: SUBTASK_PAGE_SIZE,
  fetchPage: (page) => apiPage<Subtask>('/api/tasks-due-today/', { query: { ...page } }),
});

export const useTasksDueTodayPages = () => usePagedList(getTasksDueTodayPagesQuery());
