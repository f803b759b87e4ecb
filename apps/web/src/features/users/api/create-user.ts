import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateUserInput, User } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { usersQueryKey } from './get-users';

export const createUser = (input: CreateUserInput) => api<User>('/api/users/', { method: 'POST', body: input });

export const useCreateUser = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    // Spec §2: the dashboard the admin returns to loads the users afresh, without the cached list.
    onSuccess: () => queryClient.removeQueries({ queryKey: usersQueryKey }),
  });
};
