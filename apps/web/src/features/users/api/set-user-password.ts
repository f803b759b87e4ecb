import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { usersQueryKey } from './get-users';

/** An admin sets another user's password: that user is signed out everywhere and must change it at their next sign-in. */
export const setUserPassword = ({ id, password }: { id: number; password: string }) => api<void>(`/api/users/${id}/password/`, { method: 'POST', body: { password } });

export const useSetUserPassword = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setUserPassword, onSettled: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }) });
};
