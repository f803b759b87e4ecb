import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { HOME_PATH, type Role } from '@siteboard/shared';

/**
 * The key feed tokens are derived with, from the server's secret: a key of its own, so that
 * nothing signed for one purpose passes for the other.
 */
export function feedKey(serverSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', serverSecret, 'siteboard', 'calendar feed tokens', 32));
}

/** A fresh nonce: a new one is a new URL for the feed. */
export const newNonce = () => randomBytes(32).toString('base64url');

/**
 * The secret in a feed's URL: 256 bits that only the server can work out from the stored nonce,
 * so the database alone (a backup, a leak) holds no working URL, yet the owner can be shown
 * theirs again.
 */
export function feedToken(key: Buffer, userId: number, nonce: string): string {
  return createHmac('sha256', key).update(`${userId}:${nonce}`).digest('base64url');
}

/** What the database keeps of a token, to find its feed by. */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Whether the token is the one the server would derive now (false after the server's secret changed). */
export function isCurrentToken(key: Buffer, userId: number, nonce: string, token: string): boolean {
  const expected = Buffer.from(feedToken(key, userId, nonce));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Whether `feedToken` could have written this: anything else names no feed, without a database read. */
export const isWellFormedToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/** The feed's address on the host the caller reached the server by. */
export const feedUrl = (origin: string, token: string) => `${origin}/api/calendar/${token}.ics`;

/**
 * Where an event links back to: the owner's My Tasks page, which lists both their own subtasks
 * and (for a manager) those waiting for their approval, with the subtask named in the query. An
 * admin has no such page and lands on their dashboard. There is no page of one subtask yet; when
 * there is, this is the one place to point at it, and calendars take the new links at their next poll.
 */
export function subtaskLink(origin: string, role: Role, subtaskId: number): string {
  return role === 'admin' ? `${origin}${HOME_PATH.admin}` : `${origin}${HOME_PATH[role]}/my-tasks?subtask=${subtaskId}`;
}

/** A weak validator of the feed's text: the same text, the same tag. */
/**
 * How the feed's text is written from its rows (calendar.ics.ts): raise it with any change there,
 * so calendars holding text written the old way get the new one.
 */
const FEED_FORMAT = 2;

/** The feed's ETag: a stamp of what its text is made of, computed without writing the text. */
export const feedEtag = (owner: unknown, entries: unknown, origin: string) =>
  `W/"${createHash('sha256').update(JSON.stringify([FEED_FORMAT, owner, entries, origin])).digest('base64url')}"`;

/** Whether an If-None-Match header names this tag (compared weakly, as RFC 9110 asks for If-None-Match). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}
