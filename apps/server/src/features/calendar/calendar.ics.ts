import ical from 'ical-generator';
import { t } from '@siteboard/shared';
import { subtaskLink } from './calendar.rules';
import type { FeedEntry, FeedOwner } from './calendar.queries';

/** An event's first line of description: where the subtask sits (names only, no words). */
const FEED_PLACE = '{project} › {majorTask}';
/** Each open status as the event's description says it (keys of the shared catalog). */
const FEED_STATUS = {
  ongoing: 'Status: ongoing',
  pending_approval: 'Status: waiting for approval',
} as const satisfies Record<FeedEntry['status'], string>;

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
  // The owner's words: a calendar app shows them as they are written, in the owner's language.
  const words = owner.language;
  const calendar = ical({ name: t(words, 'SiteBoard tasks'), prodId: { company: 'SiteBoard', product: 'Calendar feed', language: words.toUpperCase() }, ttl: REFRESH_SECONDS });
  // All-day events are dates, the same in every zone; the zone tells calendar apps how to show the
  // feed. It is not set as the calendar's zone: ical-generator would then write dates and
  // stamps in the server process's local time. Written into the text below, not with calendar.x().
  for (const entry of entries) {
    const link = subtaskLink(origin, owner.role, entry.id);
    const lines = [fill(FEED_PLACE, { project: entry.project, majorTask: entry.majorTask }), t(words, FEED_STATUS[entry.status])];
    if (!entry.mine && entry.assignee) lines.push(t(words, 'Assigned to {name}', { name: entry.assignee }));
    lines.push(link);
    calendar.createEvent({
      id: `subtask-${entry.id}@siteboard`,
      allDay: true,
      // A `YYYY-MM-DD` string is midnight UTC, which ical-generator writes as that date.
      start: entry.dueDate,
      end: nextDay(entry.dueDate),
      stamp: entry.changedAt,
      // A change a calendar shows raises the revision: calendar apps replace the event they keep.
      sequence: entry.sequence,
      lastModified: entry.changedAt,
      // A subtask that waits for the owner's decision, not their own work.
      summary: entry.mine ? entry.name : t(words, 'Approve: {name}', { name: entry.name }),
      description: lines.join('\n'),
      url: link,
    });
  }
  return withCalendarProperty(calendar.toString(), `X-WR-TIMEZONE:${owner.timezone}`);
}

/**
 * Adds a calendar-level property before the first event, where RFC 5545 puts it (ical-generator
 * writes its x-properties after the events, and some calendar apps ignore them there). The line is
 * short (a zone name), so it needs no folding.
 */
function withCalendarProperty(text: string, line: string): string {
  const firstEvent = text.indexOf('BEGIN:VEVENT');
  const at = firstEvent === -1 ? text.lastIndexOf('END:VCALENDAR') : firstEvent;
  return `${text.slice(0, at)}${line}\r\n${text.slice(at)}`;
}
