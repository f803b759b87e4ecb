import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_USERS_PAGE_SIZE, ASSIGNABLE_ROLES, USERS_MAX_LIMIT, type Role, type User } from '@siteboard/shared';
import { apiPage } from '../../../lib/api-client';
import { usePagedList, type ListSearch, type PagedListQuery, type PageWindow } from '../../../lib/lists';
import { queryRoots } from '../../../lib/query-keys';

export interface UserFilter {
  roles?: readonly Role[];
  /** A case-insensitive substring of the e-mail. */
  search?: string;
  /** The caller's own team members first (a manager's pickers). */
  teamFirst?: boolean;
}

/** A picker offers the first this many matches of what was typed. */
export const USER_SEARCH_SIZE = 20;

/** The company's active users by e-mail, filtered, one page at a time with the total count. */
export const getUsers = (filter: UserFilter, page: PageWindow) =>
  apiPage<User>('/api/users/', { query: { role: filter.roles, search: filter.search, team_first: filter.teamFirst ? 'true' : undefined, limit: page.limit, offset: page.offset } });

/** Every users query's key starts with this: a change to any user reloads them all. */
export const usersQueryKey = queryRoots.users;

export const getUserPagesQuery = (search: string): PagedListQuery<User> => ({
  queryKey: [...usersQueryKey, 'pages', search],
  pageSize: ADMIN_USERS_PAGE_SIZE,
  fetchPage: (page) => getUsers({ search }, page),
});

/**
 * The first matches of a search among the people a task can be assigned to and a report can be
 * about: managers and team members, the caller's own team first (a manager assigns mostly to it).
 */
export const searchPeopleQuery: ListSearch<User> = (search) => ({
  queryKey: [...usersQueryKey, 'people', search],
  queryFn: () => getUsers({ roles: ASSIGNABLE_ROLES, search, teamFirst: true }, { limit: USER_SEARCH_SIZE, offset: 0 }),
});

/**
 * The company's active managers (spec §5: the only people a team member or a project can report
 * to). A company has far fewer managers than the API's largest page.
 */
export const getManagersQueryOptions = () =>
  queryOptions({ queryKey: [...usersQueryKey, 'managers'], queryFn: async () => (await getUsers({ roles: ['manager'] }, { limit: USERS_MAX_LIMIT, offset: 0 })).items });

/** `staleTime`: how long a first page another call just brought counts as fresh (the admin dashboard's). */
export const useUserPages = (search: string, staleTime?: number) => usePagedList(getUserPagesQuery(search), { staleTime });

export const useManagers = (staleTime?: number) => useQuery({ ...getManagersQueryOptions(), staleTime });

/** Who can take over a leaving user's work: the company's managers and team members (the API's largest page). */
export const getAssignablePeopleQueryOptions = () =>
  queryOptions({ queryKey: [...usersQueryKey, 'assignable'], queryFn: async () => (await getUsers({ roles: ASSIGNABLE_ROLES }, { limit: USERS_MAX_LIMIT, offset: 0 })).items });

export const useAssignablePeople = () => useQuery(getAssignablePeopleQueryOptions());
