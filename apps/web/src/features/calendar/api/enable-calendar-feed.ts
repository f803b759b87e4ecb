import type { CalendarFeed, EnableCalendarFeedInput } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { useReplacingMutation } from '../../../lib/list-mutation';
import { getCalendarFeedQueryOptions } from './get-calendar-feed';

/** Turns the feed on, or gives it a new address: the old one stops working at once. */
export const enableCalendarFeed = (input: EnableCalendarFeedInput = {}) => api<CalendarFeed>('/api/calendar-feed/', { method: 'POST', body: input ?? {} });

export function useEnableCalendarFeed() {
  return useReplacingMutation(enableCalendarFeed, getCalendarFeedQueryOptions().queryKey);
}
