import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest, preParsingHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PERMISSIONS, acceptedAnswer, emailStatusSchema, errorResponse, failedMailSchema, t, text, type Language } from '@siteboard/shared';
import { NotFoundError, guardedBy, listFailedMails, readerLanguage, requireRole } from '../../platform';
import { escapeHtml } from '../../lib/mail-layout';
import { linkNamesSomeone, unsubscribe } from './email.service';

/**
 * The unsubscribe pages' look: a style block the page's own Content-Security-Policy allows by its
 * hash (the app's policy refuses inline styles, and a style="" attribute left the page unstyled).
 */
const PAGE_STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#0f172a;line-height:1.5}' +
  'button{font:inherit;font-size:1rem;padding:.75rem 1.5rem;min-height:2.75rem;border:0;border-radius:.5rem;background:#1d4ed8;color:#fff;cursor:pointer}' +
  'p{font-size:1.05rem}';
const PAGE_POLICY = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

/** A small page of the unsubscribe link, in the reader's language: `body` is already escaped HTML. */
function unsubscribePage(reply: FastifyReply, language: Language, body: string) {
  const page =
    `<!DOCTYPE html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>SiteBoard</title>` +
    `<style>${PAGE_STYLE}</style></head><body>${body}</body></html>`;
  return reply.type('text/html; charset=utf-8').header('content-security-policy', PAGE_POLICY).send(page);
}

/** Whether the caller is a browser showing the answer (the page's own button), not a mail client's one-click post. */
const wantsPage = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/html');

/** Public: whether this server sends e-mail (the sign-in screen offers "Forgot your password?" only then), and one-click unsubscribe. */
export const emailStatusRoutes: FastifyPluginAsyncZod<{ unsubscribeKey: Buffer }> = async (app, { unsubscribeKey }) => {
  // RFC 8058: the mail client posts `List-Unsubscribe=One-Click` as a form.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))));
  const query = z.object({ token: text().max(200) });
  const unsubscribed = (language: Language) => t(language, 'You will get no more notification e-mails. Turn them on again in your profile.');
  /** A link that names no one: a page saying so for a browser, else JSON. */
  const linkNotFound = (request: FastifyRequest, reply: FastifyReply) => {
    if (!wantsPage(request)) throw new NotFoundError();
    const language = readerLanguage(request);
    return unsubscribePage(reply.code(404), language, `<p>${escapeHtml(t(language, 'Not found.'))}</p>`);
  };
  /**
   * The link is the only credential: one that is not ours, or whose user has left, is refused (404)
   * before the form posted with it is read, so what is wrong with the form is told only to a link
   * that names someone. A malformed link is left to validation (400). Callback style: a refusal
   * answers here and the body is never parsed.
   */
  const linkFirst: preParsingHookHandler = (request, reply, payload, next) => {
    const token = query.shape.token.safeParse((request.query as Record<string, unknown> | undefined)?.token);
    if (!token.success) return next(null, payload);
    linkNamesSomeone(app.db, unsubscribeKey, token.data).then(
      (found) => {
        if (found) return next(null, payload);
        try {
          linkNotFound(request, reply);
        } catch (error) {
          next(error as Error);
        }
      },
      (error: Error) => next(error),
    );
  };

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
      return unsubscribePage(
        reply,
        language,
        `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${escapeHtml(t(language, 'Unsubscribe'))}</button></form>`,
      );
    },
  });

  app.post('/api/email/unsubscribe/', {
    preParsing: linkFirst,
    schema: {
      tags: ['email'],
      summary: "One-click unsubscribe (RFC 8058): turns the link's user's notification e-mails off, without signing in",
      querystring: query,
      // What RFC 8058 has the mail client post, as a form (a client that posts nothing is let through).
      consumes: ['application/x-www-form-urlencoded'],
      body: z.object({ 'List-Unsubscribe': z.literal('One-Click') }).nullish(),
      response: {
        200: { description: 'Done: JSON, or a page saying so for a browser (Accept: text/html)', content: { 'application/json': { schema: acceptedAnswer }, 'text/html': { schema: z.string() } } },
        400: errorResponse,
        404: { description: 'The link names no one: JSON, or a page for a browser', content: { 'application/json': { schema: errorResponse }, 'text/html': { schema: z.string() } } },
      },
    },
    handler: async (request, reply) => {
      const language = readerLanguage(request);
      // Its user may have left since the link was read.
      if (!(await unsubscribe(app.db, unsubscribeKey, request.query.token))) return linkNotFound(request, reply);
      // The page's button posts as a form: the browser shows the answer, so it gets words on a page, not JSON.
      if (wantsPage(request)) return unsubscribePage(reply, language, `<p>${escapeHtml(unsubscribed(language))}</p>`);
      return { detail: unsubscribed(language) };
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
