import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CalendarFeed } from '@siteboard/shared';
import { api, ApiError } from '../../../lib/api-client';

/** The caller's calendar feed, or null while it is off (the server answers 404). */
export async function getCalendarFeed(): Promise<CalendarFeed | null> {
  try {
    return await api<CalendarFeed>('/api/calendar-feed/');
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export const getCalendarFeedQueryOptions = () => queryOptions({ queryKey: ['calendar-feed'], queryFn: getCalendarFeed });

export const useCalendarFeed = ({ enabled }: { enabled: boolean }) => useQuery({ ...getCalendarFeedQueryOptions(), enabled });
