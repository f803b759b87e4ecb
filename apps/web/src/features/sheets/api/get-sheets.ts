import type { Sheet } from '@siteboard/shared';
import { apiPage } from '../../../lib/api-client';
import { usePagedList, type PagedListQuery } from '../../../lib/lists';
import { queryRoots } from '../../../lib/query-keys';

/** How many sheets the list shows before "Show More": a plan set of a hundred pages at once. */
export const SHEETS_PAGE_SIZE = 100;

/** The latest version of each of a project's sheets, a page at time (a key of its own: a phone's saved cache of the old whole-list answer is not misread). */
export const getSheetPagesQuery = (projectId: number): PagedListQuery<Sheet> => ({
  queryKey: [...queryRoots.sheets, 'project', projectId, 'pages'],
  pageSize: SHEETS_PAGE_SIZE,
  fetchPage: ({ limit, offset }) => apiPage<Sheet>(`/api/projects/${projectId}/sheets/`, { query: { limit, offset } }),
});

/** The project's sheets on screen; polled while any shown still renders. */
export const useSheets = (projectId: number) =>
  usePagedList(getSheetPagesQuery(projectId), {
    refetchInterval: (pages) => (pages.some((page) => page.items.some((sheet) => sheet.status === 'processing')) ? 2000 : false),
  });
