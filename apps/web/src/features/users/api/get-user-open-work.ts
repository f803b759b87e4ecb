import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserOpenWork } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { usersQueryKey } from './get-users';

const userOpenWorkQuery = (userId: number) =>
  queryOptions({
    queryKey: [...usersQueryKey, 'open-work', userId],
    queryFn: () => api<UserOpenWork>(`/api/users/${userId}/open-work/`),
    staleTime: 0,
  });

/** What deleting this user would touch (their open subtasks, the team they manage), asked afresh each time the question is shown. */
export const useUserOpenWork = (userId: number) => useQuery(userOpenWorkQuery(userId));

/** The last answer `useUserOpenWork` had, without asking: for what surrounds the question. */
export const useKnownUserOpenWork = (userId: number) => useQuery({ ...userOpenWorkQuery(userId), enabled: false }).data;
