import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordInput } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

/** Your own password: your other sessions end on the server, this one goes on. */
export const changePassword = (input: ChangePasswordInput) => api<void>('/api/profile/password/', { method: 'POST', body: input });

export const useChangePassword = () => useMutation({ mutationFn: changePassword });
