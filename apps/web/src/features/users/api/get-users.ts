import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

export const getUsers = () => api<User[]>('/api/users/');

export const getUsersQueryOptions = () => queryOptions({ queryKey: ['users'], queryFn: getUsers });

export const useUsers = () => useQuery(getUsersQueryOptions());
