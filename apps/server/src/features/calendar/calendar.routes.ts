import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { calendarFeedSchema, calendarFeedStateSchema, enableCalendarFeedInput, errorResponse, updateCalendarFeedInput } from '@siteboard/shared';
import { disableCalendarFeed, enableCalendarFeed, getCalendarFeed, readCalendarFeed, updateCalendarFeed, type FeedAddress } from './calendar.service';
import { matchesEtag } from './calendar.rules';

const tags = ['calendar'];
const security = [{ bearer: [] }];
const refusals = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

export interface CalendarRoutesOptions {
  /** The key feed tokens are derived with (`feedKey` of the server's secret). */
  feedKey: Buffer;
}

/**
 * The origin the caller reached the server by: a feed's URL and its links work from where the
 * user is. Behind a proxy (TRUST_PROXY) that is X-Forwarded-Proto and X-Forwarded-Host.
 */
const addressOf = (request: FastifyRequest, key: Buffer): FeedAddress => ({ key, origin: `${request.protocol}://${request.host}` });

/** The caller's own feed: turn on (or give a new URL), read, change, turn off. */
export const calendarFeedRoutes: FastifyPluginAsyncZod<CalendarRoutesOptions> = async (app, { feedKey }) => {
  app.post('/api/calendar-feed/', {
    schema: {
      tags,
      security,
      summary: 'Turn on your calendar feed, or give it a new URL (the old one stops working at once)',
      description: 'Created: 201; a new URL for a feed that was on: 200. include_team_approvals stays as it was unless given (managers only).',
      body: enableCalendarFeedInput,
      response: { 200: calendarFeedSchema, 201: calendarFeedSchema, ...refusals },
    },
    handler: async (request, reply) => {
      const { created, feed } = await enableCalendarFeed(request.ctx, request.body, addressOf(request, feedKey));
      return reply.code(created ? 201 : 200).send(feed);
    },
  });

  app.get('/api/calendar-feed/', {
    schema: { tags, security, summary: 'Your calendar feed: its URL, or url null while it is off', response: { 200: calendarFeedStateSchema, ...refusals } },
    handler: async (request) => getCalendarFeed(request.ctx, addressOf(request, feedKey)),
  });

  app.patch('/api/calendar-feed/', {
    schema: {
      tags,
      security,
      summary: "Whether your calendar feed also holds the subtasks waiting for your approval (managers); its URL stays",
      body: updateCalendarFeedInput,
      response: { 200: calendarFeedSchema, ...refusals },
    },
    handler: async (request) => updateCalendarFeed(request.ctx, request.body, addressOf(request, feedKey)),
  });

  app.delete('/api/calendar-feed/', {
    schema: { tags, security, summary: 'Turn your calendar feed off: its URL stops working', response: { 204: z.null().describe('Off'), ...refusals } },
    handler: async (request, reply) => {
      await disableCalendarFeed(request.ctx);
      return reply.code(204).send(null);
    },
  });
};

const ICALENDAR = 'text/calendar; charset=utf-8';

/** The feed itself, for calendar apps: its secret URL is the only credential they can send. */
export const calendarRoutes: FastifyPluginAsyncZod<CalendarRoutesOptions> = async (app, { feedKey }) => {
  app.get('/api/calendar/:token.ics', {
    schema: {
      tags,
      summary: 'A calendar feed (iCalendar, RFC 5545) at its secret URL',
      description: 'Answers 304 to If-None-Match with the ETag of an unchanged feed. An unknown, replaced or turned-off token, or one of a deleted user or company: 404.',
      params: z.object({ token: z.string() }),
      response: {
        200: { description: 'The feed', content: { 'text/calendar': { schema: z.string() } } },
        304: z.null().describe('Unchanged since the ETag given in If-None-Match'),
        404: errorResponse,
      },
    },
    handler: async (request, reply) => {
      const feed = await readCalendarFeed(app.db, request.params.token, addressOf(request, feedKey));
      // Only its owner's calendar reads it: no shared cache may keep it, and each poll revalidates.
      reply.header('etag', feed.etag).header('cache-control', 'private, no-cache');
      if (matchesEtag(request.headers['if-none-match'], feed.etag)) return reply.code(304).send(null);
      return reply.type(ICALENDAR).header('content-disposition', 'attachment; filename="siteboard-tasks.ics"').send(feed.body);
    },
  });
};
