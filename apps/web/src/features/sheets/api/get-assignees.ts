import { queryOptions, useQuery } from '@tanstack/react-query';
import { ASSIGNABLE_ROLES, USERS_MAX_LIMIT, type User } from '@siteboard/shared';
import { apiPage } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** Who a subtask made on a sheet can be given to: the company's managers and team members, the caller's team first. */
export const getAssigneesQueryOptions = () =>
  queryOptions({
    queryKey: [...queryRoots.users, 'sheet-assignees'],
    queryFn: async () => (await apiPage<User>('/api/users/', { query: { role: ASSIGNABLE_ROLES, team_first: 'true', limit: USERS_MAX_LIMIT } })).items,
  });

export const useAssignees = (enabled: boolean) => useQuery({ ...getAssigneesQueryOptions(), enabled });
