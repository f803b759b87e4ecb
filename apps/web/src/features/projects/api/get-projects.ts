import { PROJECT_PAGE_SIZE, type Project } from '@siteboard/shared';
import { apiPage } from '../../../lib/api-client';
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

export const useProjectPages = (filter: ProjectFilter, staleTime?: number) => usePagedList(getProjectPagesQuery(filter), { staleTime });
