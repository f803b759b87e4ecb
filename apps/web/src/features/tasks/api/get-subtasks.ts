import type { QueryKey } from '@tanstack/react-query';
import type { Subtask, SubtaskStatus } from '@siteboard/shared';
import { apiPage } from '../../../lib/api-client';
import { usePagedList, type PagedListQuery } from '../../../lib/lists';
import { SUBTASK_PAGE_SIZE } from '../tasks.rules';

export type SubtaskFilter = {
  /** `my_team`: the subtasks of the manager's team members. */
  assigned_to?: 'me' | 'my_team' | number;
  status?: SubtaskStatus;
  /** A comma list of project statuses, e.g. `ongoing,planned`. */
  project_status?: string;
};

/** Every subtasks query's key starts with this: a change to any subtask reloads them all. */
export const subtasksQueryKey = ['subtasks'] as const;

/** Any subtask list endpoint a page at a time, soonest due first, with how many rows it holds in all. */
export const subtaskListPages = (queryKey: QueryKey, path: string, filter: SubtaskFilter = {}): PagedListQuery<Subtask> => ({
  queryKey,
  pageSize: SUBTASK_PAGE_SIZE,
  fetchPage: (page) => apiPage<Subtask>(path, { query: { ...filter, ...page } }),
});

/** Matching subtasks a page at a time. */
export const getSubtaskPagesQuery = (filter: SubtaskFilter) => subtaskListPages([...subtasksQueryKey, 'pages', filter], '/api/subtasks/', filter);

export const useSubtaskPages = (filter: SubtaskFilter) => usePagedList(getSubtaskPagesQuery(filter));
