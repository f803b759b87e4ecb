import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

export const getUsers = () => api<User[]>('/api/users/');

export const getUsersQueryOptions = () => queryOptions({ queryKey: ['users'], queryFn: getUsers });

export const useUsers = () => useQuery(getUsersQueryOptions());

const managersOnly = (users: User[]) => users.filter((user) => user.role === 'manager');

/** The company's active managers (spec §5: the only people a team member or a project can report to), from the same cached list. */
export const useManagers = () => useQuery({ ...getUsersQueryOptions(), select: managersOnly });
