import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorResponse,
  liveNotificationParams,
  liveNotificationQuery,
  liveNotificationSchema,
  markReadInput,
  markReadResponse,
  notificationListQuery,
  notificationRecordSchema,
  tokenFromLiveProtocols,
  translateMessage,
} from '@siteboard/shared';
import { guardedBy, readerLanguage } from '../../platform';
import { authenticateLiveConnection, type LiveLogin } from './notifications.live';
import { listNotifications, markRead, ownNotificationsAsked } from './notifications.service';

const tags = ['notifications'];
const security = [{ bearer: [] }];

/** The caller's notifications: registered in the protected scope. */
export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/notifications/', {
    schema: {
      tags,
      security,
      summary: "The caller's notifications, newest first",
      querystring: notificationListQuery,
      response: { 200: z.array(notificationRecordSchema), 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse },
    },
    ...guardedBy(ownNotificationsAsked),
    handler: async (request) => listNotifications(request.ctx, request.query),
  });

  app.patch('/api/notifications/mark-read/', {
    schema: {
      tags,
      security,
      summary: "Mark the caller's notifications read: all unread without ids, else those of the ids that are the caller's",
      body: markReadInput,
      response: { 200: markReadResponse, 400: errorResponse, 401: errorResponse },
    },
    handler: async (request) => markRead(request.ctx, request.body),
  });
};

/** The live connection authenticates with `?token=` or a subprotocol (a browser WebSocket sends no Authorization header): registered outside the protected scope. */
export const liveNotificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const logins = new WeakMap<FastifyRequest, LiveLogin>();
  app.route({
    method: 'GET',
    url: '/ws/notifications/:userId/:email/',
    schema: {
      tags,
      summary: 'Live notifications over WebSocket',
      description:
        "Upgrade to a WebSocket with the access token as `?token=`, or, kept out of the URL, offered in `Sec-WebSocket-Protocol` as `siteboard.notifications, bearer.<token>` (the answer selects `siteboard.notifications`); " +
        "the token must be the path's user and e-mail (else the upgrade is refused with 401, 403, or 404 for a user not of the token's company). " +
        'Each new notification of that user arrives as one JSON text message of the 101 schema. A connection whose login ends is closed with 4401; shutdown closes with 1001; 1012 when the instance may have missed notifications (its database listening connection came back): reconnect and reload the list.',
      params: liveNotificationParams,
      querystring: liveNotificationQuery,
      response: {
        101: liveNotificationSchema.describe('Switching Protocols; then one message of this shape per notification'),
        400: errorResponse,
        401: errorResponse,
        403: errorResponse,
        404: errorResponse,
        426: errorResponse,
      },
    },
    preHandler: async (request) => {
      const token = request.query.token ?? tokenFromLiveProtocols(request.headers['sec-websocket-protocol']);
      logins.set(request, await authenticateLiveConnection(app, request.params, token));
    },
    handler: async (request, reply) => reply.code(426).header('Upgrade', 'websocket').send({ detail: translateMessage('Connect with a WebSocket.', readerLanguage(request)) }),
    wsHandler: (socket, request) => {
      app.liveNotifications.add(socket, logins.get(request)!);
    },
  });
};
