import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CALENDAR_FEED_DAYS_AHEAD, CALENDAR_FEED_DAYS_BACK, CALENDAR_FEED_MAX_EVENTS, calendarFeedSchema, calendarFeedStateSchema, enableCalendarFeedInput, errorResponse, updateCalendarFeedInput } from '@siteboard/shared';
import { disableCalendarFeed, enableCalendarFeed, getCalendarFeed, readCalendarFeed, updateCalendarFeed, type FeedAddress } from './calendar.service';
import { matchesEtag } from './calendar.rules';

const tags = ['calendar'];
const security = [{ bearer: [] }];
const refusals = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

export interface CalendarRoutesOptions {
  /** The key feed tokens are derived with (`feedKey` of the server's secret). */
  feedKey: Buffer;
  /** Where people reach this server (config PUBLIC_URL): when set, every feed URL and link starts with it. */
  publicUrl?: string;
}

/**
 * Where a feed's URL and its links point: the configured public address, else the origin the
 * caller reached the server by (behind a proxy (TRUST_PROXY), X-Forwarded-Proto and -Host), so
 * that they work from where the user is. A Host header alone never decides them once an operator
 * has said where the server lives.
 */
const addressOf = (request: FastifyRequest, { feedKey: key, publicUrl }: CalendarRoutesOptions): FeedAddress => ({ key, origin: publicUrl ?? `${request.protocol}://${request.host}` });

/**
 * The feed's writes take no Idempotency-Key: a key's kept answer would hold the feed's secret URL,
 * of which the server keeps only a hash.
 */
const repeatable = { repeatable: true };

/** The caller's own feed: turn on (or give a new URL), read, change, turn off. */
export const calendarFeedRoutes: FastifyPluginAsyncZod<CalendarRoutesOptions> = async (app, options) => {
  app.post('/api/calendar-feed/', {
    config: repeatable,
    schema: {
      tags,
      security,
      summary: 'Turn on your calendar feed, or give it a new URL (the old one stops working at once)',
      description: 'Created: 201; a new URL for a feed that was on: 200. include_team_approvals stays as it was unless given (managers only).',
      body: enableCalendarFeedInput,
      response: { 200: calendarFeedSchema, 201: calendarFeedSchema, ...refusals },
    },
    handler: async (request, reply) => {
      const { created, feed } = await enableCalendarFeed(request.ctx, request.body, addressOf(request, options));
      return reply.code(created ? 201 : 200).send(feed);
    },
  });

  app.get('/api/calendar-feed/', {
    schema: { tags, security, summary: 'Your calendar feed: its URL, or url null while it is off', response: { 200: calendarFeedStateSchema, ...refusals } },
    handler: async (request) => getCalendarFeed(request.ctx, addressOf(request, options)),
  });

  app.patch('/api/calendar-feed/', {
    config: repeatable,
    schema: {
      tags,
      security,
      summary: "Whether your calendar feed also holds the subtasks waiting for your approval (managers); its URL stays",
      body: updateCalendarFeedInput,
      response: { 200: calendarFeedSchema, ...refusals },
    },
    handler: async (request) => updateCalendarFeed(request.ctx, request.body, addressOf(request, options)),
  });

  app.delete('/api/calendar-feed/', {
    config: repeatable,
    schema: { tags, security, summary: 'Turn your calendar feed off: its URL stops working', response: { 204: z.null().describe('Off'), ...refusals } },
    handler: async (request, reply) => {
      await disableCalendarFeed(request.ctx);
      return reply.code(204).send(null);
    },
  });
};

const ICALENDAR = 'text/calendar; charset=utf-8';

/** The feed itself, for calendar apps: its secret URL is the only credential they can send. */
export const calendarRoutes: FastifyPluginAsyncZod<CalendarRoutesOptions> = async (app, options) => {
  app.get('/api/calendar/:token.ics', {
    schema: {
      tags,
      summary: 'A calendar feed (iCalendar, RFC 5545) at its secret URL',
      description: `The open work due from ${CALENDAR_FEED_DAYS_BACK} days before to ${CALENDAR_FEED_DAYS_AHEAD} days after the owner's today, at most ${CALENDAR_FEED_MAX_EVENTS} events, soonest due first. Answers 304 to If-None-Match with the ETag of an unchanged feed. An unknown, replaced or turned-off token, or one of a deleted user or company: 404.`,
      params: z.object({ token: z.string() }),
      response: {
        200: { description: 'The feed', content: { 'text/calendar': { schema: z.string() } } },
        304: z.null().describe('Unchanged since the ETag given in If-None-Match'),
        404: errorResponse,
      },
    },
    handler: async (request, reply) => {
      const feed = await readCalendarFeed(app.db, request.params.token, addressOf(request, options));
      // Only its owner's calendar reads it: no shared cache may keep it, and each poll revalidates.
      reply.header('etag', feed.etag).header('cache-control', 'private, no-cache');
      // Its words are in its owner's language, whoever's client asks (never Accept-Language).
      reply.header('content-language', feed.language);
      if (matchesEtag(request.headers['if-none-match'], feed.etag)) return reply.code(304).send(null);
      return reply.type(ICALENDAR).header('content-disposition', 'attachment; filename="siteboard-tasks.ics"').send(feed.body());
    },
  });
};
