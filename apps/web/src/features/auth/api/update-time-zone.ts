import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Profile } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { getProfileQueryOptions } from './get-profile';

/** The user's own time zone; null follows the company's again. */
export const updateTimeZone = (timezone: string | null) => api<Profile>('/api/profile/', { method: 'PATCH', body: { timezone } });

export function useUpdateTimeZone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTimeZone,
    onSuccess: (profile) => queryClient.setQueryData(getProfileQueryOptions().queryKey, profile),
  });
}
