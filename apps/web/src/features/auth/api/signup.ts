import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SignupInput, User } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { getCompaniesQueryOptions } from './get-companies';

export const signup = (input: SignupInput) => api<{ company_id: number; user: User }>('/api/signup/', { method: 'POST', auth: false, body: input });

export const useSignup = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: getCompaniesQueryOptions().queryKey }),
  });
};
