import { useMutation } from '@tanstack/react-query';
import type { PasswordResetInput } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

/** Always 202, whether or not the account exists: the answer tells nobody who has an account. */
export const requestPasswordReset = (input: PasswordResetInput) => api<unknown>('/api/password-reset/', { method: 'POST', auth: false, body: input });

export const useRequestPasswordReset = () => useMutation({ mutationFn: requestPasswordReset });
