import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * A whole number from `min` to `max`. zod takes a schema's own message for its checks too, so
 * each check says what it wants: without, `DB_POOL_SIZE=0` read "must be a number".
 */
const wholeNumber = (min: number, max: number, maxSays = `must be at most ${max}`) =>
  z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(min, `must be at least ${min}`).max(max, maxSays);

/** An smtp:// or smtps:// address that names a host and, if any, a port that can exist. */
function isMailServerAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '' && url.port !== '0';
  } catch {
    return false;
  }
}

const booleanFlag = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1');

/**
 * Whose X-Forwarded-For to believe. Only the nearest proxies' entries are the addresses they saw;
 * anything further left is whatever the client wrote. `true` is the one proxy in front (a load
 * balancer), a number that many hops, a list those proxies' addresses or subnets.
 */
function trustedProxies(value: string): boolean | number | string {
  if (value === 'false' || value === '0') return false;
  if (value === 'true') return 1;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

const envSchema = z.object({
  PORT: wholeNumber(0, 65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  /** The built web app (apps/web/dist unless set): set, it must hold the build, or the server would answer every page with a 404. */
  WEB_DIST_DIR: z.string().min(1).optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ALLOW_SIGNUP: booleanFlag.default(true),
  PUBLIC_COMPANY_LIST: booleanFlag.default(false),
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d{1,2}|[0-9a-fA-F.:/]+(,\s*[0-9a-fA-F.:/]+)*)$/, 'must be true, false, a hop count or a comma list of proxy addresses')
    .transform(trustedProxies)
    .default(false),
  /**
   * The address people reach this SiteBoard at (`https://siteboard.example.com`): links in e-mails
   * and calendar feeds are built from it. Unset, a feed's links follow the request's own address.
   */
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, 'must be an http:// or https:// address without a query')
    .transform((value) => value.replace(/\/+$/, ''))
    .optional(),
  /**
   * Where mail goes out: `smtp://user:pass@host:587` (STARTTLS when the server offers it) or
   * `smtps://user:pass@host:465` (TLS from the first byte). Unset: nothing is mailed, and the
   * screens hide invitations and forgotten passwords. Needs PUBLIC_URL (links in mails point there).
   */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, 'must start with smtp:// or smtps://')
    .refine(isMailServerAddress, 'must name the mail server: smtp://user:password@host:587, with a port from 1 to 65535')
    .optional(),
  /** The From of every mail: `SiteBoard <noreply@example.com>`. */
  MAIL_FROM: z
    .string()
    .regex(/^([^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/, 'must be an address, or a name and an address in <>')
    .default('SiteBoard <noreply@localhost>'),
  /** DKIM signing: all three set, or none. The key is a PEM file's path. */
  DKIM_DOMAIN: z.string().min(1).optional(),
  DKIM_SELECTOR: z.string().min(1).optional(),
  DKIM_PRIVATE_KEY_FILE: z.string().min(1).optional(),
  /** Prometheus metrics on a port of their own (never the public one); unset: no metrics server. */
  METRICS_PORT: wholeNumber(1, 65535).optional(),
  /** Where the metrics port listens: this machine only unless an operator opens it to a Prometheus elsewhere. */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { error: 'must be one of fatal, error, warn, info, debug, trace, silent' }).default('info'),
  DB_POOL_SIZE: wholeNumber(1, 200).default(10),
  APPROVAL_DELAY_HOURS: z.coerce.number({ error: 'must be a number' }).positive('must be above 0').default(48),
  SWEEP_INTERVAL_SECONDS: wholeNumber(10, 86_400, 'must be at most 86400 (one day)').default(300),
  /** The local hour (in each recipient's time zone) deadline reminders go out from: the start of a site's working day. */
  REMINDER_LOCAL_HOUR: wholeNumber(0, 23).default(7),
  /** The local hour (in each project manager's time zone) from which a working day without a signed daily log is reminded of: the end of a site's day. */
  DAILY_LOG_REMINDER_LOCAL_HOUR: wholeNumber(0, 23).default(18),
  /**
   * The memory a drawing's rendering process may give one band of a PDF page's raster (MiB): the
   * page is drawn band after band into a file (decision record 092), so this bounds a render's
   * memory whatever the page's size; smaller is more passes of PDF.js over the page.
   */
  SHEET_RENDER_MEMORY_MB: wholeNumber(8, 4096).default(64),
  /** Test only (idempotency-crash.test.ts): the server kills itself (SIGKILL) at this point of every write sent with an Idempotency-Key. */
  IDEMPOTENCY_CRASH_AT: z.enum(['before-commit', 'after-commit'], { error: 'must be before-commit or after-commit' }).optional(),
});

/** Every variable the server reads, but those only tests set (the README's configuration table names each). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape).filter((name) => name !== 'IDEMPOTENCY_CRASH_AT');

export type Config = z.output<typeof envSchema> & { dataDir: string; webDistDir: string | undefined };

export class ConfigError extends Error {}

/** Variables that are, or may carry, a secret: a refusal names them without their value (start-up messages end up in journals). */
const SECRETS = new Set(['JWT_SECRET']);
/** Addresses that may carry a password: a refusal shows only their scheme. */
const ADDRESSES_WITH_CREDENTIALS = new Set(['DATABASE_URL', 'SMTP_URL']);

/** What a refusal shows of the value it refused. */
function shownValue(name: string, value: string | undefined): string {
  if (value === undefined) return '(not set)';
  if (SECRETS.has(name)) return `(got ${value.length} characters, not shown)`;
  if (ADDRESSES_WITH_CREDENTIALS.has(name)) {
    const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0];
    return scheme ? `(got "${scheme}…", the rest not shown)` : '(got a value that is not an address, not shown)';
  }
  return `(got "${value}")`;
}

/** Whether two listening addresses would take the same port: equal, or either is every address. */
const sameAddress = (a: string, b: string) => a === b || [a, b].some((host) => host === '0.0.0.0' || host === '::');

/** Reads the environment once at start; every bad value is named in one message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message} ${shownValue(String(issue.path[0]), present[String(issue.path[0])])}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const problems = [
    parsed.data.SMTP_URL && !parsed.data.PUBLIC_URL ? '  PUBLIC_URL: must be set when SMTP_URL is (links in mails point there)' : undefined,
    new Set([parsed.data.DKIM_DOMAIN, parsed.data.DKIM_SELECTOR, parsed.data.DKIM_PRIVATE_KEY_FILE].map((value) => value === undefined)).size > 1
      ? '  DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY_FILE: set all three, or none'
      : undefined,
    parsed.data.METRICS_PORT !== undefined && parsed.data.METRICS_PORT === parsed.data.PORT && sameAddress(parsed.data.METRICS_HOST, parsed.data.HOST)
      ? `  METRICS_PORT: must be another port than PORT on ${parsed.data.HOST} (got "${parsed.data.METRICS_PORT}" for both)`
      : undefined,
  ].filter((line) => line !== undefined);
  // npm runs workspace scripts inside the workspace; DATA_DIR is relative to where the user typed the command.
  const base = env.INIT_CWD ?? process.cwd();
  const webDistDir = parsed.data.WEB_DIST_DIR && path.resolve(base, parsed.data.WEB_DIST_DIR);
  if (webDistDir && !fs.existsSync(path.join(webDistDir, 'index.html'))) {
    problems.push(`  WEB_DIST_DIR: must be the built web app, a folder with index.html (got "${parsed.data.WEB_DIST_DIR}"): run npm run build, or unset it`);
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return {
    ...parsed.data,
    dataDir: path.resolve(base, parsed.data.DATA_DIR),
    webDistDir,
  };
}

/**
 * Listens on the port a variable names; a port another program holds (or one this user may not
 * open) stops the start with a message naming the variable, as a bad value does, not Node's
 * `listen EADDRINUSE` and a stack.
 */
export async function listenOn<T>(variable: 'PORT' | 'METRICS_PORT', port: number, host: string, listen: () => Promise<T>): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new ConfigError(`${variable}: port ${port} on ${host} is in use by another program: stop it, or choose another port`);
    if (code === 'EACCES') throw new ConfigError(`${variable}: port ${port} on ${host} may not be opened by this user (ports below 1024 need privileges): choose another port`);
    throw error;
  }
}
