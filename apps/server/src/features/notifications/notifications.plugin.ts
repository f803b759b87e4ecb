import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { startSweep, type Db, type Metrics } from '../../platform';
import { createLiveHub, type LiveHub } from './notifications.live';
import { NOTIFICATION_KIND } from './notifications.queries';
import { runDailyLogReminders, runSweeps, subscribeToTaskEvents, sweepBatchFor } from './notifications.service';

declare module 'fastify' {
  interface FastifyInstance {
    liveNotifications: LiveHub;
  }
}

export interface NotificationsOptions {
  /** How often the reminder sweeps run; unset: never (tests drive `runSweeps` with their own clock). */
  sweepIntervalSeconds?: number;
  approvalDelayHours: number;
  reminderLocalHour: number;
  dailyLogReminderLocalHour: number;
  /** WebSocket heartbeat; 30 s unless a test needs it faster. */
  pingIntervalMs?: number;
}

/** A first sweep soon after start, so frequent restarts cannot starve the timer. */
const FIRST_SWEEP_DELAY_MS = 5_000;

/**
 * Notifications as side effects: rows written in the transaction of the task change (event
 * subscription), the live hub fed by this instance's one LISTEN connection, and the sweeps.
 */
export const notificationsPlugin = fp(
  async (app: FastifyInstance, options: NotificationsOptions) => {
    subscribeToTaskEvents();
    const pushed = app.metrics.counter({ name: 'siteboard_notifications_pushed_total', help: 'Notifications sent to a live connection of this instance.' });
    const hub = createLiveHub({ db: app.database.liveDb, log: app.log, pingIntervalMs: options.pingIntervalMs, onPushed: () => pushed.inc() });
    app.decorate('liveNotifications', hub);
    const unlisten = app.database.changes.on(NOTIFICATION_KIND, hub.deliver);
    // A login that ends (signed out, password changed, user deleted) hears nothing more from that moment.
    const unlistenUsers = app.database.changes.on('u', hub.userChanged);
    const unlistenLogins = app.database.changes.on('f', hub.loginChanged);
    // Only once listening again: a marker late under load (`unconfirmed`) must not drop every socket.
    const unmissed = app.database.changes.onMissed((why) => {
      if (why === 'reconnected') hub.missedSome();
    });
    const sweeper = options.sweepIntervalSeconds
      ? startSweeper(app.db, app.log, app.metrics, {
          intervalMs: options.sweepIntervalSeconds * 1000,
          approvalDelayHours: options.approvalDelayHours,
          reminderLocalHour: options.reminderLocalHour,
          dailyLogReminderLocalHour: options.dailyLogReminderLocalHour,
          batchSize: sweepBatchFor(app.database.kind),
        })
      : undefined;

    app.addHook('onClose', async () => {
      hub.close();
      await sweeper?.stop();
      unlisten();
      unlistenUsers();
      unlistenLogins();
      unmissed();
    });
  },
  { name: 'notifications', dependencies: ['db', 'auth', 'ws', 'metrics'] },
);

function startSweeper(db: Db, log: FastifyBaseLogger, metrics: Metrics, options: { intervalMs: number; approvalDelayHours: number; reminderLocalHour: number; dailyLogReminderLocalHour: number; batchSize: number }) {
  return startSweep({
    name: 'notification sweep',
    intervalMs: options.intervalMs,
    firstRunAfterMs: Math.min(FIRST_SWEEP_DELAY_MS, options.intervalMs),
    log,
    metrics,
    run: async () => {
      const now = new Date();
      const result = await runSweeps(db, { now, approvalDelayHours: options.approvalDelayHours, reminderLocalHour: options.reminderLocalHour, batchSize: options.batchSize });
      if (result.swept && result.created > 0) log.info(result, 'notification sweep');
      const reminders = await runDailyLogReminders(db, { now, localHour: options.dailyLogReminderLocalHour, batchSize: options.batchSize });
      if (reminders.swept && reminders.created > 0) log.info(reminders, 'daily log reminder sweep');
    },
  });
}
