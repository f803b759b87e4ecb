import { api } from '../../../lib/api-client';
import { useListMutation } from '../../../lib/list-mutation';
import { usersQueryKey } from './get-users';

/** An admin sets another user's password: that user is signed out everywhere and must change it at their next sign-in. */
export const setUserPassword = ({ id, password }: { id: number; password: string }) => api<void>(`/api/users/${id}/password/`, { method: 'POST', body: { password } });

export const useSetUserPassword = () => useListMutation(setUserPassword, usersQueryKey);
