import { useMutation } from '@tanstack/react-query';
import type { VerifyCompanyPasswordInput } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

export const verifyCompanyPassword = (input: VerifyCompanyPasswordInput) =>
  api<{ success: true; company_id: number }>('/api/verify-company-password/', { method: 'POST', auth: false, body: input });

export const useVerifyCompanyPassword = () => useMutation({ mutationFn: verifyCompanyPassword });
