import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openConfiguredDatabase, DataDirLockedError } from './platform';
import { loadOrCreateSecret } from './features/auth/auth.tokens';

async function main() {
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  const app = await buildApp({
    database,
    jwtSecret: loadOrCreateSecret(config.JWT_SECRET, config.dataDir),
    allowSignup: config.ALLOW_SIGNUP,
    publicCompanyList: config.PUBLIC_COMPANY_LIST,
    trustProxy: config.TRUST_PROXY,
    webDistDir: config.webDistDir,
    publicUrl: config.PUBLIC_URL,
    logger: { level: config.LOG_LEVEL },
    sweepIntervalSeconds: config.SWEEP_INTERVAL_SECONDS,
    approvalDelayHours: config.APPROVAL_DELAY_HOURS,
    reminderLocalHour: config.REMINDER_LOCAL_HOUR,
    dailyLogReminderLocalHour: config.DAILY_LOG_REMINDER_LOCAL_HOUR,
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    await app.drain();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  const where = config.DATABASE_URL ? 'PostgreSQL' : `embedded PGlite in ${config.dataDir}`;
  app.log.info(`SiteBoard is running on http://localhost:${config.PORT} (database: ${where})`);
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
