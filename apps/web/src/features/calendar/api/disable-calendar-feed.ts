import { api } from '../../../lib/api-client';
import { useReplacingMutation } from '../../../lib/list-mutation';
import { getCalendarFeedQueryOptions } from './get-calendar-feed';

/** Turns the feed off: its address stops working. */
export const disableCalendarFeed = () => api<void>('/api/calendar-feed/', { method: 'DELETE' });

export function useDisableCalendarFeed() {
  return useReplacingMutation(disableCalendarFeed, getCalendarFeedQueryOptions().queryKey, () => null);
}
