import { useMutation } from '@tanstack/react-query';
import type { CompanyPasswordInput } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

/** A new company password; nothing the app shows depends on it, so nothing is reloaded. */
export const changeCompanyPassword = (input: CompanyPasswordInput) => api<void>('/api/company/password/', { method: 'PUT', body: input });

export const useChangeCompanyPassword = () => useMutation({ mutationFn: changeCompanyPassword });
