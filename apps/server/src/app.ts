import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  type Database,
  trackRequests,
  safeLogger,
  createMetrics,
  requestIds,
  bodyPlugin,
  conditionalGetPlugin,
  dbPlugin,
  errorsPlugin,
  frameworkErrors,
  fingerprintKey,
  idempotencyPlugin,
  type CrashPoint,
  jobsPlugin,
  allowedMethodsPlugin,
  languagePlugin,
  mailPlugin,
  type MailSettings,
  metricsPlugin,
  openapiPlugin,
  requestIdPlugin,
  SHUTDOWN_TIMEOUT_MS,
  securityHeadersPlugin,
  webPlugin,
  wsPlugin,
} from './platform';
import { authFeaturePlugin } from './features/auth/auth.plugin';
import { authProtectedRoutes, authPublicRoutes } from './features/auth/auth.routes';
import { invitationsPublicRoutes, invitationsRoutes } from './features/auth/invitations.routes';
import { calendarFeedRoutes, calendarRoutes } from './features/calendar/calendar.routes';
import { feedKey } from './features/calendar/calendar.rules';
import { companiesRoutes } from './features/companies/companies.routes';
import { companySettingsRoutes } from './features/companies/company-settings.routes';
import { dailyLogsRoutes } from './features/daily-logs/daily-logs.routes';
import { dashboardRoutes } from './features/dashboard/dashboard.routes';
import { passwordResetPlugin } from './features/auth/password-reset.plugin';
import { emailPlugin } from './features/email/email.plugin';
import { emailRoutes, emailStatusRoutes } from './features/email/email.routes';
import { unsubscribeKey } from './features/email/email.service';
import { healthRoutes } from './features/health/health.routes';
import { notificationsPlugin } from './features/notifications/notifications.plugin';
import { DEFAULT_DAILY_LOG_REMINDER_LOCAL_HOUR, DEFAULT_REMINDER_LOCAL_HOUR } from './features/notifications/notifications.service';
import { liveNotificationsRoutes, notificationsRoutes } from './features/notifications/notifications.routes';
import { projectsRoutes } from './features/projects/projects.routes';
import { sheetsPlugin } from './features/sheets/sheets.plugin';
import { sheetsRoutes } from './features/sheets/sheets.routes';
import { reportsRoutes } from './features/reports/reports.routes';
import { activityRoutes } from './features/tasks/activity.routes';
import { tasksRoutes } from './features/tasks/tasks.routes';
import { teamMembersRoutes } from './features/users/team.routes';
import { usersRoutes } from './features/users/users.routes';

export interface AppOptions {
  database: Database;
  jwtSecret: string;
  allowSignup?: boolean;
  /** Whether GET /api/companies/ lists every company to anyone (else a signed-in user's own). */
  publicCompanyList?: boolean;
  /**
   * Whose X-Forwarded-For to believe (config TRUST_PROXY): a number of proxy hops in front of the
   * server, their addresses or subnets (comma list), true for any, or false.
   */
  trustProxy?: boolean | number | string;
  /** Where people reach this server (config PUBLIC_URL, no trailing slash): links in mails and feeds. */
  publicUrl?: string;
  /** SMTP (config SMTP_URL, MAIL_FROM, DKIM_*): unset, nothing is mailed and screens hide what needs it. Needs publicUrl. */
  mail?: MailSettings;
  /** The built web app to serve; apps/web/dist when unset. */
  webDistDir?: string;
  logger?: FastifyServerOptions['logger'];
  /** How often the notification sweeps run; unset: never (tests call runSweeps themselves). */
  sweepIntervalSeconds?: number;
  /** approval_delay: how long a subtask may wait for approval (48 hours unless set). */
  approvalDelayHours?: number;
  /** deadline_reminder: the local hour, in each recipient's zone, reminders go out from (7 unless set). */
  reminderLocalHour?: number;
  /** How often the job runner looks for due work it was not told about (5 s unless set; tests shorten it). */
  jobPollMs?: number;
  /** daily_log_reminder: the local hour, in each project manager's zone, a day without a signed log is reminded of (18 unless set). */
  dailyLogReminderLocalHour?: number;
  /** The live connections' heartbeat (30 s unless set; tests shorten it). */
  livePingIntervalMs?: number;
  /** Test only: where a keyed write kills the server (config IDEMPOTENCY_CRASH_AT). */
  idempotencyCrashAt?: CrashPoint;
  /** How long a duplicate keyed write waits for its first request before a 409 (tests shorten it). */
  idempotencyKeyWaitMs?: number;
  /** Where drawings' tiles, previews and uploads still rendering are kept (`<DATA_DIR>/sheets`; a fresh temporary folder unless set). */
  sheetsDir?: string;
  /** The most pixels one rendered sheet may hold (its memory bound; 48 M unless set; tests lower it to render fast). */
  sheetPixelBudget?: number;
  /** The memory one band of a page's raster may take while it is drawn (config SHEET_RENDER_MEMORY_MB; 64 MiB unless set). */
  sheetRenderMemoryBytes?: number;
}

export async function buildApp(options: AppOptions) {
  const app = Fastify({
    logger: safeLogger(options.logger ?? false),
    trustProxy: trustedProxies(options.trustProxy ?? false),
    genReqId: requestIds(options.trustProxy ?? false),
    // While closing, a request that still arrives on a kept-alive connection is refused with 503
    // before any handler runs (the last step of the drain: platform/drain.ts).
    return503OnClosing: true,
    // Also how long each close hook may take (Fastify's default, 10 s, cut off the job runner's
    // wait for a mail half sent and exited 1): the shutdown's own budget bounds them instead.
    pluginTimeout: SHUTDOWN_TIMEOUT_MS,
    // An id of a thousand digits reaches its route, whose schema refuses it in the reader's language:
    // past the router's default 100 characters it matched no route, and answered as a 404 or 405.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 8_192 },
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();
  const requests = trackRequests(app);
  app.decorate('drain', requests.drain);
  app.decorate('draining', { getter: () => requests.draining });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(requestIdPlugin);
  // Before every route: it hears each one added, for the 405s of the not-found handler (web).
  await app.register(allowedMethodsPlugin);
  await app.register(errorsPlugin);
  await app.register(languagePlugin);
  await app.register(securityHeadersPlugin);
  await app.register(bodyPlugin);
  // Crews load lists over a site's mobile connection: JSON and the app's files shrink several
  // times over; answers under 1 KB go as they are. A JSON answer is compressed in one call rather
  // than through a zlib stream: on two cores the stream's thread-pool hops and chunked writes cost
  // the server more CPU per list request than the compression itself (decision record 006).
  // Files still stream. The bound covers a bounded list page and the OpenAPI document (330 KB
  // once every answer's headers and the daily log were documented): gzip does 1 MB in ~10 ms.
  // Brotli at quality 3, not the plugin's 4: on the API's JSON it is ~25 % less CPU for the same
  // size (the 200-notification list: 2,434 bytes against 2,457; decision record 006, late addendum).
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    syncThreshold: 1024 * 1024,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 3, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } },
  });
  await app.register(dbPlugin, { database: options.database });
  await app.register(metricsPlugin, { metrics: createMetrics(app.log), inFlight: () => requests.inFlight });
  // Several instances share one PostgreSQL database, so they share its throttle counters too.
  const throttleStore = options.database.kind === 'postgres' ? { kind: 'database' as const, db: options.database.db } : { kind: 'memory' as const };
  await app.register(authFeaturePlugin, { jwtSecret: options.jwtSecret, throttleStore });
  await app.register(jobsPlugin, { pollMs: options.jobPollMs });
  if (options.mail && !options.publicUrl) throw new Error('Sending e-mail needs PUBLIC_URL: links in mails point there.');
  await app.register(mailPlugin, { settings: options.mail });
  const mailLinks = { mail: { configured: options.mail !== undefined, publicUrl: options.publicUrl ?? '' } };
  await app.register(passwordResetPlugin, mailLinks.mail);
  const unsubscribe = { unsubscribeKey: unsubscribeKey(options.jwtSecret) };
  await app.register(emailPlugin, {
    sweepIntervalSeconds: options.sweepIntervalSeconds,
    localHour: options.reminderLocalHour ?? DEFAULT_REMINDER_LOCAL_HOUR,
    publicUrl: options.publicUrl ?? '',
    ...unsubscribe,
  });
  await app.register(openapiPlugin);
  await app.register(wsPlugin);
  await app.register(notificationsPlugin, {
    sweepIntervalSeconds: options.sweepIntervalSeconds,
    approvalDelayHours: options.approvalDelayHours ?? 48,
    reminderLocalHour: options.reminderLocalHour ?? DEFAULT_REMINDER_LOCAL_HOUR,
    dailyLogReminderLocalHour: options.dailyLogReminderLocalHour ?? DEFAULT_DAILY_LOG_REMINDER_LOCAL_HOUR,
    pingIntervalMs: options.livePingIntervalMs,
  });

  const sheetsDir = options.sheetsDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-sheets-'));
  fs.mkdirSync(sheetsDir, { recursive: true });
  // A folder of its own (tests, scripts) goes with the app; a configured one stays.
  if (!options.sheetsDir) app.addHook('onClose', async () => fs.promises.rm(sheetsDir, { recursive: true, force: true }));
  await app.register(sheetsPlugin, { sheetsDir, pixelBudget: options.sheetPixelBudget, bandBytes: options.sheetRenderMemoryBytes });

  const calendar = { feedKey: feedKey(options.jwtSecret), publicUrl: options.publicUrl };
  await app.register(async (publicScope) => {
    await publicScope.register(healthRoutes);
    await publicScope.register(calendarRoutes, calendar);
    await publicScope.register(companiesRoutes, { allowSignup: options.allowSignup ?? true, publicCompanyList: options.publicCompanyList ?? false });
    await publicScope.register(authPublicRoutes);
    await publicScope.register(invitationsPublicRoutes, mailLinks);
    await publicScope.register(emailStatusRoutes, unsubscribe);
    await publicScope.register(liveNotificationsRoutes);
  });

  await app.register(async (protectedScope) => {
    protectedScope.addHook('onRequest', protectedScope.authenticate);
    // After compression (registered at the root): the tag is of the bytes that go out.
    await protectedScope.register(conditionalGetPlugin);
    // Signed-in writes only: sign-in, sign-up and token calls have no user to keep a key for.
    await protectedScope.register(idempotencyPlugin, {
      fingerprintKey: fingerprintKey(options.jwtSecret),
      sweepIntervalSeconds: options.sweepIntervalSeconds,
      crashAt: options.idempotencyCrashAt,
      keyWaitMs: options.idempotencyKeyWaitMs,
    });
    await protectedScope.register(authProtectedRoutes);
    await protectedScope.register(companySettingsRoutes);
    await protectedScope.register(usersRoutes);
    await protectedScope.register(invitationsRoutes, mailLinks);
    await protectedScope.register(emailRoutes);
    await protectedScope.register(teamMembersRoutes);
    await protectedScope.register(projectsRoutes);
    await protectedScope.register(tasksRoutes);
    await protectedScope.register(activityRoutes);
    await protectedScope.register(reportsRoutes);
    await protectedScope.register(notificationsRoutes);
    await protectedScope.register(calendarFeedRoutes, calendar);
    await protectedScope.register(dashboardRoutes);
    await protectedScope.register(dailyLogsRoutes);
    await protectedScope.register(sheetsRoutes, { sheetsDir });
  });

  await app.register(webPlugin, { webDistDir: options.webDistDir });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

/**
 * Fastify's trust for a hop count: the first `hops` addresses back from the socket are proxies,
 * so the client address is the one the outermost of them saw (Fastify itself refuses bare hop counts).
 */
function trustedProxies(trust: boolean | number | string): FastifyServerOptions['trustProxy'] {
  if (typeof trust !== 'number') return trust;
  return (_address: string, hop: number) => hop < trust;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Stops accepting, answers the requests already sent, then closes (SIGTERM). */
    drain(): Promise<void>;
    /** Whether the drain has begun (the readiness check says so). */
    readonly draining: boolean;
  }
}
