import type { Profile } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { useReplacingMutation } from '../../../lib/list-mutation';
import { getProfileQueryOptions } from './get-profile';

/** The user's own time zone; null follows the company's again. */
export const updateTimeZone = (timezone: string | null) => api<Profile>('/api/profile/', { method: 'PATCH', body: { timezone } });

export function useUpdateTimeZone() {
  return useReplacingMutation(updateTimeZone, getProfileQueryOptions().queryKey);
}
