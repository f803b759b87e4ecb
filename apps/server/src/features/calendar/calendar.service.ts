import type { z } from 'zod';
import { can, type Language, ONLY_MANAGERS_INCLUDE_APPROVALS, type CalendarFeed, type CalendarFeedState, type enableCalendarFeedInput, type UpdateCalendarFeedInput } from '@siteboard/shared';
import { type Db, type ServiceContext, ForbiddenError, NotFoundError } from '../../platform';
import { renderFeed } from './calendar.ics';
import { deleteFeed, findFeed, readFeed, saveFeed, updateFeedOption, type FeedSettings } from './calendar.queries';
import { feedEtag, feedToken, feedUrl, isCurrentToken, isWellFormedToken, newNonce, tokenHash } from './calendar.rules';

type EnableCalendarFeed = z.output<typeof enableCalendarFeedInput>;

export const CALENDAR_FEED_OFF = 'Your calendar feed is off.';
export const CALENDAR_FEED_NOT_FOUND = 'Calendar feed not found.';

/** What a feed's URL is made of: the server's key for tokens, and the origin the caller reached the server by. */
export interface FeedAddress {
  key: Buffer;
  origin: string;
}

function assertMayInclude(ctx: ServiceContext, includeTeamApprovals: boolean | undefined) {
  if (includeTeamApprovals && !can(ctx.user.role, 'calendar:team-approvals')) throw new ForbiddenError(ONLY_MANAGERS_INCLUDE_APPROVALS);
}

/**
 * The feed as its owner sees it. A feed whose URL the server no longer derives (its secret
 * changed since) answers nothing at that URL either, so it counts as off.
 */
function currentFeed(ctx: ServiceContext, settings: FeedSettings | undefined, address: FeedAddress): CalendarFeed | undefined {
  const token = settings && feedToken(address.key, ctx.user.id, settings.nonce);
  if (!settings || !token || tokenHash(token) !== settings.tokenHash) return undefined;
  return { url: feedUrl(address.origin, token), include_team_approvals: settings.includeTeamApprovals };
}

function toCalendarFeed(ctx: ServiceContext, settings: FeedSettings | undefined, address: FeedAddress): CalendarFeed {
  const feed = currentFeed(ctx, settings, address);
  if (!feed) throw new NotFoundError(CALENDAR_FEED_OFF);
  return feed;
}

/** Turns the caller's feed on, or gives it a new URL: the old one stops answering at once. */
export async function enableCalendarFeed(ctx: ServiceContext, input: EnableCalendarFeed, address: FeedAddress): Promise<{ created: boolean; feed: CalendarFeed }> {
  assertMayInclude(ctx, input.include_team_approvals);
  const nonce = newNonce();
  const token = feedToken(address.key, ctx.user.id, nonce);
  const saved = await saveFeed(ctx.db, {
    companyId: ctx.user.companyId,
    userId: ctx.user.id,
    nonce,
    tokenHash: tokenHash(token),
    includeTeamApprovals: input.include_team_approvals,
  });
  return { created: saved.created, feed: { url: feedUrl(address.origin, token), include_team_approvals: saved.includeTeamApprovals } };
}

/** The caller's feed; one that is off (or whose URL the server no longer derives) is `url: null`. */
export async function getCalendarFeed(ctx: ServiceContext, address: FeedAddress): Promise<CalendarFeedState> {
  return currentFeed(ctx, await findFeed(ctx.db, ctx.user.companyId, ctx.user.id), address) ?? { url: null, include_team_approvals: false };
}

/** Changes what the feed holds; its URL stays. */
export async function updateCalendarFeed(ctx: ServiceContext, input: UpdateCalendarFeedInput, address: FeedAddress): Promise<CalendarFeed> {
  assertMayInclude(ctx, input.include_team_approvals);
  return toCalendarFeed(ctx, await updateFeedOption(ctx.db, ctx.user.companyId, ctx.user.id, input.include_team_approvals), address);
}

export async function disableCalendarFeed(ctx: ServiceContext): Promise<void> {
  await deleteFeed(ctx.db, ctx.user.companyId, ctx.user.id);
}

/**
 * The feed a token names, with its ETag: one statement. The ETag is a stamp of everything the text
 * is made of (the owner, the rows, the origin), so a calendar that has the current feed gets its 304
 * without the text being built (`body` builds it when it is sent). Nothing for a token of no feed,
 * of a feed turned off or given a new URL, of a deleted user or company.
 */
export async function readCalendarFeed(db: Db, token: string, address: FeedAddress): Promise<{ body: () => string; etag: string; language: Language }> {
  const feed = isWellFormedToken(token) ? await readFeed(db, tokenHash(token)) : undefined;
  if (!feed || !isCurrentToken(address.key, feed.owner.userId, feed.owner.nonce, token)) throw new NotFoundError(CALENDAR_FEED_NOT_FOUND);
  return { body: () => renderFeed(feed.owner, feed.entries, address.origin), etag: feedEtag(feed.owner, feed.entries, address.origin), language: feed.owner.language };
}
