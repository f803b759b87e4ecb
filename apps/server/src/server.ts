import fs from 'node:fs';
import path from 'node:path';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app';
import { ConfigError, listenOn, loadConfig } from './config';
import { DATABASE_TIMEOUTS, DataDirLockedError, describeUnreachableDatabase, openConfiguredDatabase, processLogger, serveEmbeddedBackups, serveMetrics, serverLogger, SHUTDOWN_TIMEOUT_MS } from './platform';
import { loadOrCreateSecret } from './features/auth/auth.tokens';

const terminal = process.stdout.isTTY === true;

/**
 * Stops a start that cannot go on with one line in the log (JSON, or readable at a terminal): the
 * reason, not a stack. Whatever LOG_LEVEL says (`silent` too): a refused start is never silent.
 */
async function refuse(message: string): Promise<never> {
  (await processLogger('info', terminal)).fatal(message);
  process.exit(1);
}

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) await refuse(error.message);
    throw error;
  }
  const log = await processLogger(config.LOG_LEVEL, terminal);
  const database = await openConfiguredDatabase(config, log).catch(async (error: unknown) => {
    if (error instanceof DataDirLockedError) await refuse(error.message);
    const unreachable = config.DATABASE_URL ? describeUnreachableDatabase(error, config.DATABASE_URL, DATABASE_TIMEOUTS) : undefined;
    if (unreachable) await refuse(unreachable);
    throw error;
  });
  const app = await buildApp({
    database,
    jwtSecret: loadOrCreateSecret(config.JWT_SECRET, config.dataDir),
    allowSignup: config.ALLOW_SIGNUP,
    publicCompanyList: config.PUBLIC_COMPANY_LIST,
    trustProxy: config.TRUST_PROXY,
    webDistDir: config.webDistDir,
    publicUrl: config.PUBLIC_URL,
    mail: config.SMTP_URL
      ? {
          smtpUrl: config.SMTP_URL,
          from: config.MAIL_FROM,
          dkim:
            config.DKIM_DOMAIN && config.DKIM_SELECTOR && config.DKIM_PRIVATE_KEY_FILE
              ? { domainName: config.DKIM_DOMAIN, keySelector: config.DKIM_SELECTOR, privateKey: fs.readFileSync(config.DKIM_PRIVATE_KEY_FILE, 'utf8') }
              : undefined,
        }
      : undefined,
    logger: await serverLogger(config.LOG_LEVEL, terminal),
    sweepIntervalSeconds: config.SWEEP_INTERVAL_SECONDS,
    approvalDelayHours: config.APPROVAL_DELAY_HOURS,
    reminderLocalHour: config.REMINDER_LOCAL_HOUR,
    dailyLogReminderLocalHour: config.DAILY_LOG_REMINDER_LOCAL_HOUR,
    idempotencyCrashAt: config.IDEMPOTENCY_CRASH_AT,
    sheetsDir: path.join(config.dataDir, 'sheets'),
    sheetRenderMemoryBytes: config.SHEET_RENDER_MEMORY_MB * 2 ** 20,
  });
  let metricsServer: Awaited<ReturnType<typeof serveMetrics>> | undefined;
  // `npm run backup` asks the running server for its embedded database (platform/database/embedded-backup.ts).
  const backups = await serveEmbeddedBackups(database, app.log);

  // SIGTERM or SIGINT drains (platform/drain.ts) and closes the database; a second signal, an
  // uncaught error after the first, or a drain past the timeout exits at once with code 1.
  closeWithGrace({ delay: SHUTDOWN_TIMEOUT_MS, logger: app.log }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'stopping after an uncaught error');
    else app.log.info({ signal }, 'shutting down');
    await backups.close();
    await app.drain();
    await metricsServer?.close();
    await database.close();
  });

  // Metrics first: a port that cannot be had stops the start before anyone is served.
  if (config.METRICS_PORT !== undefined) {
    const port = config.METRICS_PORT;
    metricsServer = await listenOn('METRICS_PORT', port, config.METRICS_HOST, () => serveMetrics(app.metrics, { port, host: config.METRICS_HOST, log: app.log }));
    app.log.info(`Metrics for Prometheus on http://${config.METRICS_HOST}:${config.METRICS_PORT}/metrics`);
  }
  await listenOn('PORT', config.PORT, config.HOST, () => app.listen({ port: config.PORT, host: config.HOST }));
  const where = config.DATABASE_URL ? 'PostgreSQL' : `embedded PGlite in ${config.dataDir}`;
  app.log.info(`SiteBoard is running on http://localhost:${config.PORT} (database: ${where})`);
}

main().catch(async (error: unknown) => {
  // A port that cannot be had (listenOn): named like a bad value, without a stack.
  if (error instanceof ConfigError) await refuse(`SiteBoard could not start: ${error.message}`);
  (await processLogger('info', terminal)).fatal({ err: error }, 'SiteBoard could not start');
  process.exit(1);
});
