import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { startSweep } from '../../platform';
import { NOTIFICATION_MAIL_QUEUE, type NotificationMailJob } from '../notifications/notifications.queries';
import { queueImmediateMails, runDigests } from './email.service';

/**
 * The daily digests, looked for every sweep interval when mail is on (decision record 077), and
 * the mails of notifications for those who take them as they happen (decision record 079).
 */
export const emailPlugin = fp(
  async (app: FastifyInstance, options: { sweepIntervalSeconds?: number; localHour: number; publicUrl: string; unsubscribeKey: Buffer }) => {
    // Defined with mail off too: a notification's job then ends with nothing to send instead of waiting forever.
    app.jobs.define<NotificationMailJob>({
      queue: NOTIFICATION_MAIL_QUEUE,
      async handle(job) {
        if (!app.mail.configured) return;
        await app.db.transaction((tx) => queueImmediateMails(tx, options, job.payload.notifications));
      },
    });
    if (!app.mail.configured || !options.sweepIntervalSeconds) return;
    const sweep = startSweep({
      name: 'daily digest sweep',
      intervalMs: options.sweepIntervalSeconds * 1000,
      log: app.log,
      metrics: app.metrics,
      run: () => runDigests(app.db, { now: new Date(), localHour: options.localHour, publicUrl: options.publicUrl, unsubscribeKey: options.unsubscribeKey }),
    });
    app.addHook('onClose', async () => sweep.stop());
  },
  { name: 'email', dependencies: ['mail', 'jobs', 'metrics'] },
);
