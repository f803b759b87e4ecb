import type { Profile } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { useReplacingMutation } from '../../../lib/list-mutation';
import { getProfileQueryOptions } from './get-profile';

/** One's own name as colleagues see it; empty is none (the e-mail stands in). */
export const updateFullName = (full_name: string) => api<Profile>('/api/profile/', { method: 'PATCH', body: { full_name } });

export function useUpdateFullName() {
  return useReplacingMutation(updateFullName, getProfileQueryOptions().queryKey);
}
