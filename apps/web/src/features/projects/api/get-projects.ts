import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { PROJECT_PAGE_SIZE, type Project } from '@siteboard/shared';
import { apiPage, type ListPage } from '../../../lib/api-client';
import { usePagedList, type ListSearch, type PagedListQuery, type PageWindow } from '../../../lib/lists';
import { queryRoots } from '../../../lib/query-keys';
import { statusesOf, type ProjectTab } from '../projects.rules';

export interface ProjectFilter {
  tab?: ProjectTab;
  /** A case-insensitive substring of the name. */
  search?: string;
}

/**
 * Every project list on every screen, in every role, shows the newest project first: the one
 * just created is where its maker looks (decision record 035).
 */
export const PROJECT_ORDER = 'newest';

/** A picker offers the first this many matches of what was typed. */
export const PROJECT_SEARCH_SIZE = 20;

const listQuery = (filter: ProjectFilter, page: PageWindow) => ({ status: filter.tab && statusesOf(filter.tab), search: filter.search, order: PROJECT_ORDER, limit: page.limit, offset: page.offset });

/** One page of the company's matching projects, and how many match in all. */
export const getProjects = (filter: ProjectFilter, page: PageWindow) => apiPage<Project>('/api/projects/', { query: listQuery(filter, page) });

/** What the project browser shows first: the ongoing tab, no search (the dashboards fetch it ahead). */
export const FIRST_PROJECT_FILTER = { tab: 'ongoing', search: '' } satisfies ProjectFilter;

/** Every projects query's key starts with this: a change to any project reloads them all. */
export const projectsQueryKey = queryRoots.projects;

export const getProjectPagesQuery = (filter: ProjectFilter): PagedListQuery<Project> => ({
  queryKey: [...projectsQueryKey, 'pages', filter],
  pageSize: PROJECT_PAGE_SIZE,
  fetchPage: (page) => getProjects(filter, page),
});

/** The first matches of a search among the projects that still take tasks (not completed). */
export const searchOpenProjectsQuery: ListSearch<Project> = (search) => ({
  queryKey: [...projectsQueryKey, 'open', search],
  queryFn: () => getProjects({ tab: 'ongoing', search }, { limit: PROJECT_SEARCH_SIZE, offset: 0 }),
});

/**
 * Asks ahead, in one call, for the first projects that still take tasks as both screens that open
 * with them show them: the create-task pickers' first PROJECT_SEARCH_SIZE (no search), and the project
 * browser's first page, the same list's first PROJECT_PAGE_SIZE (its first tab, no search), which is
 * taken from that answer instead of a second call for a part of it. A browser list opened further
 * keeps its pages, and a newer first page is kept.
 */
export async function prefetchFirstOpenProjects(queryClient: QueryClient, staleTime: number) {
  const search = searchOpenProjectsQuery(FIRST_PROJECT_FILTER.search);
  await queryClient.prefetchQuery({ ...search, staleTime });
  const answer = queryClient.getQueryState<ListPage<Project>>(search.queryKey);
  const { queryKey } = getProjectPagesQuery(FIRST_PROJECT_FILTER);
  const shown = queryClient.getQueryState<InfiniteData<ListPage<Project>, number>>(queryKey);
  if (answer?.data === undefined || (shown?.data?.pages.length ?? 0) > 1 || (shown?.dataUpdatedAt ?? 0) >= answer.dataUpdatedAt) return;
  const firstPage = { items: answer.data.items.slice(0, PROJECT_PAGE_SIZE), total: answer.data.total };
  queryClient.setQueryData<InfiniteData<ListPage<Project>, number>>(queryKey, { pages: [firstPage], pageParams: [0] }, { updatedAt: answer.dataUpdatedAt });
}

export const useProjectPages = (filter: ProjectFilter, staleTime?: number) => usePagedList(getProjectPagesQuery(filter), { staleTime });
