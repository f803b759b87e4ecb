import type { UpdateUserInput, User } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { useListMutation } from '../../../lib/list-mutation';
import { usersQueryKey } from './get-users';

export const updateUser = ({ id, input }: { id: number; input: UpdateUserInput }) => api<User>(`/api/users/${id}/`, { method: 'PATCH', body: input });

export const useUpdateUser = () => useListMutation(updateUser, usersQueryKey);
