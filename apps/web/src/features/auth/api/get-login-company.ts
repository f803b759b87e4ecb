import { useQuery } from '@tanstack/react-query';
import type { companyLoginPageSchema } from '@siteboard/shared';
import type { z } from 'zod';
import { ApiError, api } from '../../../lib/api-client';

/** Whether the company a sign-in link names exists (public: the answer is only its id). */
export const getLoginCompany = (companyId: string) =>
  api<z.infer<typeof companyLoginPageSchema>>(`/api/companies/${encodeURIComponent(companyId)}/`, { auth: false });

/**
 * `unknown` once the server said no such company (404) or no such id (400); while it has not
 * answered, or cannot be reached, the sign-in form stays usable.
 */
export function useLoginCompany(companyId: string): { unknown: boolean } {
  const query = useQuery({ queryKey: ['login-company', companyId], queryFn: () => getLoginCompany(companyId), staleTime: Infinity });
  return { unknown: query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400) };
}
