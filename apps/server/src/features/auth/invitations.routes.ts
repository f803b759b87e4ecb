import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PERMISSIONS,
  acceptInvitationAnswer,
  acceptInvitationInput,
  acceptedAnswer,
  createInvitationInput,
  errorResponse,
  idParams,
  invitationPreviewSchema,
  invitationSchema,
  invitationTokenQuery,
  passwordResetConfirmInput,
  passwordResetInput,
  t,
} from '@siteboard/shared';
import { guardedBy, readerLanguage, requireRole } from '../../platform';
import {
  acceptInvitation,
  confirmPasswordReset,
  deleteInvitation,
  invitationFound,
  invite,
  listInvitations,
  previewInvitation,
  requestPasswordReset,
  resendInvitation,
  type MailLinks,
} from './invitations.service';

const tags = ['invitations'];
const security = [{ bearer: [] }];
const gone = errorResponse.describe('The link was already used, revoked or has expired');

/** An admin's invitations by e-mail. */
export const invitationsRoutes: FastifyPluginAsyncZod<{ mail: MailLinks }> = async (app, { mail }) => {
  const admin = requireRole(...PERMISSIONS['users:manage']);

  app.post('/api/invitations/', {
    ...guardedBy(admin),
    schema: {
      tags,
      summary: 'Invite a person by e-mail (72 hours, single use); an address of an existing user is 409',
      description: 'A manager_id that is not a user of the company answers 404.',
      security,
      body: createInvitationInput,
      response: { 201: invitationSchema, 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse },
    },
    handler: async (request, reply) => reply.code(201).send(await invite(request.ctx, mail, request.body)),
  });

  app.get('/api/invitations/', {
    ...guardedBy(admin),
    schema: { tags, summary: 'Invitations not yet accepted or revoked, oldest first', security, response: { 200: z.array(invitationSchema), 401: errorResponse, 403: errorResponse } },
    handler: async (request) => listInvitations(request.ctx),
  });

  app.post('/api/invitations/:id/resend/', {
    ...guardedBy(admin, invitationFound),
    schema: {
      tags,
      summary: 'Mail a new link (the old one stops working) valid 72 hours again',
      security,
      params: idParams,
      body: z.object({}).nullish(),
      response: { 202: z.null().describe('Queued'), 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse },
    },
    handler: async (request, reply) => {
      await resendInvitation(request.ctx, mail, request.params.id);
      return reply.code(202).send(null);
    },
  });

  app.delete('/api/invitations/:id/', {
    ...guardedBy(admin, invitationFound),
    schema: { tags, summary: 'Revoke an invitation: its link stops working', security, params: idParams, response: { 204: z.null().describe('Revoked'), 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse } },
    handler: async (request, reply) => {
      await deleteInvitation(request.ctx, request.params.id);
      return reply.code(204).send(null);
    },
  });
};

/** Public: opening an invitation's link, and forgotten passwords. */
export const invitationsPublicRoutes: FastifyPluginAsyncZod<{ mail: MailLinks }> = async (app, { mail }) => {
  app.get('/api/invitations/accept/', {
    schema: { tags, summary: "What an invitation's link opens: the address, company, role and name", querystring: invitationTokenQuery, response: { 200: invitationPreviewSchema, 400: errorResponse, 410: gone } },
    handler: async (request) => previewInvitation(app.db, request.query.token),
  });

  app.post('/api/invitations/accept/', {
    schema: {
      tags,
      summary: 'Accept an invitation: set your name and password, and be signed in',
      body: acceptInvitationInput,
      response: { 201: acceptInvitationAnswer, 400: errorResponse, 409: errorResponse, 410: gone },
    },
    handler: async (request, reply) => reply.code(201).send(await acceptInvitation({ db: app.db, tokens: app.tokens }, request.body)),
  });

  app.post('/api/password-reset/', {
    schema: {
      tags: ['auth'],
      summary: 'Forgotten password: mails a one-hour link if the account exists; the answer is the same either way',
      body: passwordResetInput,
      response: { 202: acceptedAnswer, 400: errorResponse, 429: errorResponse },
    },
    handler: async (request, reply) => {
      await requestPasswordReset({ db: app.db, throttle: app.loginThrottle, mail }, request.body, request.ip);
      return reply.code(202).send({ detail: t(readerLanguage(request), 'If an account with this e-mail exists in this company, a link to choose a new password is on its way.') });
    },
  });

  app.post('/api/password-reset/confirm/', {
    schema: {
      tags: ['auth'],
      summary: 'Set a new password through a reset link: every session of the user ends',
      body: passwordResetConfirmInput,
      response: { 200: acceptedAnswer, 400: errorResponse, 410: gone },
    },
    handler: async (request) => {
      await confirmPasswordReset(app.db, request.body);
      return { detail: t(readerLanguage(request), 'Your password was changed. Sign in with your new password.') };
    },
  });
};
