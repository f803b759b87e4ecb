import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { mailPasswordReset, PASSWORD_RESET_QUEUE, type MailLinks, type PasswordResetRequest } from './invitations.service';

/** Makes the forgotten-password mails, a persistent job each (the request answers before the account is looked up). */
export const passwordResetPlugin = fp(
  async (app: FastifyInstance, options: MailLinks) => {
    app.jobs.define<PasswordResetRequest>({ queue: PASSWORD_RESET_QUEUE, handle: (job) => mailPasswordReset(app.db, options, job.payload) });
  },
  { name: 'password-reset', dependencies: ['jobs'] },
);
