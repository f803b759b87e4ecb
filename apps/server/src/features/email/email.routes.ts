import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PERMISSIONS, emailStatusSchema, errorResponse, failedMailSchema } from '@siteboard/shared';
import { listFailedMails, requireRole } from '../../platform';

/** Public: whether this server sends e-mail (the sign-in screen offers "Forgot your password?" only then). */
export const emailStatusRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/email/', {
    schema: { tags: ['email'], summary: 'Whether this server sends e-mail (SMTP_URL is set)', response: { 200: emailStatusSchema } },
    handler: async () => ({ configured: app.mail.configured }),
  });
};

export const emailRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/email/failed/', {
    preValidation: requireRole(...PERMISSIONS['company:manage']),
    schema: {
      tags: ['email'],
      summary: "The company's mails that were given up (refused for good, or every retry failed), newest first",
      security: [{ bearer: [] }],
      response: { 200: z.array(failedMailSchema), 401: errorResponse, 403: errorResponse },
    },
    handler: async (request) => listFailedMails(request.ctx.db, request.ctx.user.companyId),
  });
};
