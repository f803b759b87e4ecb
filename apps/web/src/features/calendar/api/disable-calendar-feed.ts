import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { getCalendarFeedQueryOptions } from './get-calendar-feed';

/** Turns the feed off: its address stops working. */
export const disableCalendarFeed = () => api<void>('/api/calendar-feed/', { method: 'DELETE' });

export function useDisableCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableCalendarFeed,
    onSuccess: () => queryClient.setQueryData(getCalendarFeedQueryOptions().queryKey, null),
  });
}
