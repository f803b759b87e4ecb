import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CalendarFeed, UpdateCalendarFeedInput } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { getCalendarFeedQueryOptions } from './get-calendar-feed';

/** Whether the feed also holds the subtasks waiting for the manager's approval; its address stays. */
export const updateCalendarFeed = (input: UpdateCalendarFeedInput) => api<CalendarFeed>('/api/calendar-feed/', { method: 'PATCH', body: input });

export function useUpdateCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCalendarFeed,
    onSuccess: (feed) => queryClient.setQueryData(getCalendarFeedQueryOptions().queryKey, feed),
  });
}
