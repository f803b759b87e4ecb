import type { CalendarFeed, UpdateCalendarFeedInput } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { useReplacingMutation } from '../../../lib/list-mutation';
import { getCalendarFeedQueryOptions } from './get-calendar-feed';

/** Whether the feed also holds the subtasks waiting for the manager's approval; its address stays. */
export const updateCalendarFeed = (input: UpdateCalendarFeedInput) => api<CalendarFeed>('/api/calendar-feed/', { method: 'PATCH', body: input });

export function useUpdateCalendarFeed() {
  return useReplacingMutation(updateCalendarFeed, getCalendarFeedQueryOptions().queryKey);
}
