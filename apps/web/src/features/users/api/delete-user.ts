import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateAfterSubtaskChange } from '../../../lib/query-keys';
import { usersQueryKey } from './get-users';

/** Deletes the user; their open subtasks go to `reassignTo` in the same step (the server refuses with 409 if they have some and nobody is named). */
export const deleteUser = ({ id, reassignTo }: { id: number; reassignTo?: number }) =>
  api<void>(`/api/users/${id}/`, { method: 'DELETE', query: { reassign_to: reassignTo } });

export const useDeleteUser = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: usersQueryKey }), invalidateAfterSubtaskChange(queryClient)]),
  });
};
