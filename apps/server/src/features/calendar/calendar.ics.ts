import ical from 'ical-generator';
import { subtaskLink } from './calendar.rules';
import type { FeedEntry, FeedOwner } from './calendar.queries';

export const FEED_NAME = 'SiteBoard tasks';
/** An event's first line of description: where the subtask sits. */
export const FEED_PLACE = '{project} › {majorTask}';
export const FEED_STATUS: Record<FeedEntry['status'], string> = {
  ongoing: 'Status: ongoing',
  pending_approval: 'Status: waiting for approval',
};
/** The title of a subtask that waits for the feed owner's decision, not their own work. */
export const FEED_APPROVAL_TITLE = 'Approve: {name}';
export const FEED_ASSIGNEE = 'Assigned to {email}';

const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

/** The day after a calendar date (`YYYY-MM-DD`), where an all-day event of that date ends. */
export function nextDay(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

/** How often calendar apps are asked to poll: the feed answers 304 when nothing changed. */
const REFRESH_SECONDS = 15 * 60;

/**
 * The feed as iCalendar text (RFC 5545): each subtask an all-day event on its due date, titled
 * with its name, placed in its project and major task, with its status and a link back. Written
 * only from what it is given, so the same feed gives the same text, byte for byte (the ETag relies on it).
 */
export function renderFeed(owner: FeedOwner, entries: FeedEntry[], origin: string): string {
  const calendar = ical({ name: FEED_NAME, prodId: { company: 'SiteBoard', product: 'Calendar feed', language: 'EN' }, ttl: REFRESH_SECONDS });
  // All-day events are dates, the same in every zone; the zone tells calendar apps how to show the
  // feed. It is not set as the calendar's zone: ical-generator would then write dates and
  // stamps in the server process's local time.
  calendar.x('X-WR-TIMEZONE', owner.timezone);
  for (const entry of entries) {
    const link = subtaskLink(origin, owner.role, entry.id);
    const lines = [fill(FEED_PLACE, { project: entry.project, majorTask: entry.majorTask }), FEED_STATUS[entry.status]];
    if (!entry.mine && entry.assignee) lines.push(fill(FEED_ASSIGNEE, { email: entry.assignee }));
    lines.push(link);
    calendar.createEvent({
      id: `subtask-${entry.id}@siteboard`,
      allDay: true,
      // A `YYYY-MM-DD` string is midnight UTC, which ical-generator writes as that date.
      start: entry.dueDate,
      end: nextDay(entry.dueDate),
      stamp: entry.changedAt,
      summary: entry.mine ? entry.name : fill(FEED_APPROVAL_TITLE, { name: entry.name }),
      description: lines.join('\n'),
      url: link,
    });
  }
  return calendar.toString();
}
