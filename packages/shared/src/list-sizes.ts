/**
 * Page sizes and limits of lists the first screens ask for (the admin dashboard's among them). Kept
 * free of zod, like lists.ts and roles.ts: the schema modules import them from here (decision record 095).
 */

/** Spec §9: project lists show 10 until "Show More" (the dashboards' first request asks for that many). */
export const PROJECT_PAGE_SIZE = 10;

/** A subtask's history comes this many entries at a time, the latest first ("Show earlier entries" for the rest). */
export const ACTIVITY_PAGE_SIZE = 100;

/** The most users one request lists (a page, or the managers the admin's forms choose from). */
export const USERS_MAX_LIMIT = 200;

/** The admin dashboard's user table shows this many, then as many more on each "Show More". */
export const ADMIN_USERS_PAGE_SIZE = 50;

/** Days without a signed daily log: the most projects one request lists, and how far back the view looks by default. */
export const DAILY_LOG_PROJECTS_MAX_LIMIT = 100;
export const MISSING_LOGS_DEFAULT_DAYS = 14;
/** The admin dashboard's missing logs look this many days back until the admin picks another period. */
export const ADMIN_MISSING_LOGS_DAYS = MISSING_LOGS_DEFAULT_DAYS;

/**
 * A calendar feed holds the open work due from this many days back to this many days ahead of
 * its owner's today, at most this many events, soonest due first (decision record 115).
 */
export const CALENDAR_FEED_DAYS_BACK = 90;
export const CALENDAR_FEED_DAYS_AHEAD = 365;
export const CALENDAR_FEED_MAX_EVENTS = 2000;
