import { useMutation } from '@tanstack/react-query';
import type { verifyCompanyPasswordSuccess, VerifyCompanyPasswordInput } from '@siteboard/shared';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';

export const verifyCompanyPassword = (input: VerifyCompanyPasswordInput) =>
  api<z.infer<typeof verifyCompanyPasswordSuccess>>('/api/verify-company-password/', { method: 'POST', auth: false, body: input });

export const useVerifyCompanyPassword = () => useMutation({ mutationFn: verifyCompanyPassword });
