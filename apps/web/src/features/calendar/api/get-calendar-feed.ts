import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CalendarFeed, CalendarFeedState } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

/** The caller's calendar feed, or null while it is off. */
export async function getCalendarFeed(): Promise<CalendarFeed | null> {
  const feed = await api<CalendarFeedState>('/api/calendar-feed/');
  return feed.url === null ? null : { url: feed.url, include_team_approvals: feed.include_team_approvals };
}

export const getCalendarFeedQueryOptions = () => queryOptions({ queryKey: ['calendar-feed'], queryFn: getCalendarFeed });

export const useCalendarFeed = ({ enabled }: { enabled: boolean }) => useQuery({ ...getCalendarFeedQueryOptions(), enabled });
