import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PERMISSIONS, acceptedAnswer, emailStatusSchema, errorResponse, failedMailSchema, t, text } from '@siteboard/shared';
import { NotFoundError, guardedBy, listFailedMails, readerLanguage, requireRole } from '../../platform';
import { escapeHtml } from '../../lib/mail-layout';
import { unsubscribe } from './email.service';

/** Public: whether this server sends e-mail (the sign-in screen offers "Forgot your password?" only then), and one-click unsubscribe. */
export const emailStatusRoutes: FastifyPluginAsyncZod<{ unsubscribeKey: Buffer }> = async (app, { unsubscribeKey }) => {
  // RFC 8058: the mail client posts `List-Unsubscribe=One-Click` as a form.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))));
  const query = z.object({ token: text().max(200) });

  app.get('/api/email/unsubscribe/', {
    schema: {
      tags: ['email'],
      summary: "The footer link of a notification mail: a page whose one button turns that user's notification e-mails off (a GET changes nothing, as link scanners follow links)",
      querystring: query,
      response: { 200: { description: 'The page', content: { 'text/html': { schema: z.string() } } }, 400: errorResponse },
    },
    handler: async (request, reply) => {
      const language = readerLanguage(request);
      const action = `/api/email/unsubscribe/?token=${encodeURIComponent(request.query.token)}`;
      const page =
        `<!DOCTYPE html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>SiteBoard</title></head>` +
        `<body style="font-family:sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem"><form method="post" action="${escapeHtml(action)}">` +
        `<input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit" style="font-size:1rem;padding:.75rem 1.5rem">${escapeHtml(t(language, 'Unsubscribe'))}</button></form></body></html>`;
      return reply.type('text/html; charset=utf-8').send(page);
    },
  });

  app.post('/api/email/unsubscribe/', {
    schema: {
      tags: ['email'],
      summary: "One-click unsubscribe (RFC 8058): turns the link's user's notification e-mails off, without signing in",
      querystring: query,
      // What RFC 8058 has the mail client post, as a form (a client that posts nothing is let through).
      consumes: ['application/x-www-form-urlencoded'],
      body: z.object({ 'List-Unsubscribe': z.literal('One-Click') }).nullish(),
      response: { 200: acceptedAnswer, 400: errorResponse, 404: errorResponse },
    },
    handler: async (request) => {
      if (!(await unsubscribe(app.db, unsubscribeKey, request.query.token))) throw new NotFoundError();
      return { detail: t(readerLanguage(request), 'You will get no more notification e-mails. Turn them on again in your profile.') };
    },
  });

  app.get('/api/email/', {
    schema: { tags: ['email'], summary: 'Whether this server sends e-mail (SMTP_URL is set)', response: { 200: emailStatusSchema } },
    handler: async () => ({ configured: app.mail.configured }),
  });
};

export const emailRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/email/failed/', {
    ...guardedBy(requireRole(...PERMISSIONS['company:manage'])),
    schema: {
      tags: ['email'],
      summary: "The company's mails that were given up (refused for good, or every retry failed), newest first",
      security: [{ bearer: [] }],
      response: { 200: z.array(failedMailSchema), 401: errorResponse, 403: errorResponse },
    },
    handler: async (request) => listFailedMails(request.ctx.db, request.ctx.user.companyId),
  });
};
