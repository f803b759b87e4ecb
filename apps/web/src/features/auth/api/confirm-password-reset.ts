import { useMutation } from '@tanstack/react-query';
import type { PasswordResetConfirmInput } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

export const confirmPasswordReset = (input: PasswordResetConfirmInput) => api<unknown>('/api/password-reset/confirm/', { method: 'POST', auth: false, body: input });

export const useConfirmPasswordReset = () => useMutation({ mutationFn: confirmPasswordReset });
