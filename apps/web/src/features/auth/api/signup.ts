import { useMutation } from '@tanstack/react-query';
import type { SignupInput, User } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

export const signup = (input: SignupInput) => api<{ company_id: number; user: User }>('/api/signup/', { method: 'POST', auth: false, body: input });

export const useSignup = () => useMutation({ mutationFn: signup });
