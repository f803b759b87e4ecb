import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { runDigests } from './email.service';

/** The daily digests: looked for every sweep interval, when mail is on (decision record 077). */
export const emailPlugin = fp(
  async (app: FastifyInstance, options: { sweepIntervalSeconds?: number; localHour: number; publicUrl: string; unsubscribeKey: Buffer }) => {
    if (!app.mail.configured || !options.sweepIntervalSeconds) return;
    let running: Promise<unknown> | undefined;
    const sweep = () => {
      running ??= runDigests(app.db, { now: new Date(), localHour: options.localHour, publicUrl: options.publicUrl, unsubscribeKey: options.unsubscribeKey })
        .catch((error: unknown) => app.log.error({ err: error }, 'daily digest sweep failed'))
        .finally(() => (running = undefined));
    };
    const timer = setInterval(sweep, options.sweepIntervalSeconds * 1000);
    timer.unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await running;
    });
  },
  { name: 'email', dependencies: ['mail'] },
);
