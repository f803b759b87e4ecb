import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateUserInput, User } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { usersQueryKey } from './get-users';

export const updateUser = ({ id, input }: { id: number; input: UpdateUserInput }) => api<User>(`/api/users/${id}/`, { method: 'PATCH', body: input });

export const useUpdateUser = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
};
