import { z } from 'zod';

/** A user's calendar feed: its secret URL, for a calendar app to subscribe to. */
export const calendarFeedSchema = z.object({
  url: z.string().meta({ description: 'The feed (iCalendar); whoever has this URL reads it, so it is shown to its owner only' }),
  include_team_approvals: z.boolean().meta({ description: "Whether the feed also holds the subtasks waiting for the caller's approval (managers)" }),
});
export type CalendarFeed = z.infer<typeof calendarFeedSchema>;

/** The caller's feed as `GET /api/calendar-feed/` answers it: a feed that is off is an answer (url null), not an error. */
export const calendarFeedStateSchema = z.object({
  url: z.string().nullable().meta({ description: 'The feed (iCalendar), or null while it is off' }),
  include_team_approvals: z.boolean().meta({ description: "Whether the feed also holds the subtasks waiting for the caller's approval (managers); false while it is off" }),
});
export type CalendarFeedState = z.infer<typeof calendarFeedStateSchema>;

/** Turning the feed on, or giving it a new URL: the option stays as it was unless given. */
export const enableCalendarFeedInput = z
  .object({ include_team_approvals: z.boolean({ error: 'include_team_approvals must be true or false.' }).optional() })
  .nullish()
  .transform((input) => input ?? {});
export type EnableCalendarFeedInput = z.input<typeof enableCalendarFeedInput>;

export const updateCalendarFeedInput = z.object({ include_team_approvals: z.boolean({ error: 'include_team_approvals must be true or false.' }) });
export type UpdateCalendarFeedInput = z.input<typeof updateCalendarFeedInput>;

export const ONLY_MANAGERS_INCLUDE_APPROVALS = 'Only managers can add the subtasks waiting for their approval to their calendar feed.';
