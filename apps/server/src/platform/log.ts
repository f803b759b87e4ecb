import type { FastifyServerOptions } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';

/** Query parameters whose values are secrets (the live connection's access token). */
const SECRET_PARAMS = new Set(['token', 'access', 'refresh']);

function decodedName(part: string): string {
  const name = part.split('=', 1)[0]!;
  try {
    return decodeURIComponent(name.replaceAll('+', ' ')).trim().toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

/**
 * The URL as the request log shows it: a secret parameter's value is replaced, its name read the
 * way the server reads it (decoded, so `?%74oken=` is `token` too), and a calendar feed's token.
 * An e-mail address the specification's notification calls carry (the live connection's path,
 * `?email=` of the list) is left out too: the user id beside it says who, and logs are kept.
 */
export function redactedUrl(rawUrl: string): string {
  // A calendar feed's address is its secret (calendar apps can send no other credential).
  const url = rawUrl.replace(/^(\/api\/calendar\/)[^/?]+/, '$1[redacted]').replace(/^(\/ws\/notifications\/[^/?]+\/)[^/?]+/, '$1[e-mail]');
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((part) => {
      const name = decodedName(part);
      if (SECRET_PARAMS.has(name)) return `${part.split('=', 1)[0]}=[redacted]`;
      return name === 'email' ? `${part.split('=', 1)[0]}=[e-mail]` : part;
    })
    .join('&');
  return `${url.slice(0, queryStart)}?${query}`;
}

/** Fields of a database error that carry the values a statement was given (a unique violation's detail names the key). */
const VALUE_FIELDS = new Set(['params', 'parameters', 'detail', 'where', 'query']);

/**
 * An error as the log shows it: its kind, message, stack and database code, and its causes, never
 * the values of a failed statement (a drizzle error's message lists them: a new company's password
 * hash among them).
 */
export function loggableError(error: unknown, depth = 0): unknown {
  if (typeof error !== 'object' || error === null) return error;
  const source = error as Record<string, unknown> & { message?: unknown; stack?: unknown; cause?: unknown };
  // Drizzle's wrapper names the values in its message; the database's own error keeps its reason.
  const wrapper = typeof source.query === 'string' && String(source.message).startsWith('Failed query:');
  const message = wrapper ? `Failed query: ${source.query}` : String(source.message ?? '');
  const stackFrames = typeof source.stack === 'string' ? source.stack.split('\n').filter((line) => line.startsWith('    at ')) : [];
  const logged: Record<string, unknown> = { type: source.constructor?.name ?? 'Error', message, stack: [`${source.constructor?.name ?? 'Error'}: ${message}`, ...stackFrames].join('\n') };
  for (const [key, value] of Object.entries(source)) {
    if (VALUE_FIELDS.has(key) || key === 'cause' || typeof value === 'object' || typeof value === 'function') continue;
    logged[key] = value;
  }
  if (source.cause !== undefined && depth < 4) logged.cause = loggableError(source.cause, depth + 1);
  return logged;
}

/** The app's logger options: request URLs without secrets, errors without statement values. */
export function safeLogger(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return logger;
  return {
    ...(typeof logger === 'object' ? logger : {}),
    serializers: {
      req: (request: { method: string; url: string; host?: string; ip?: string }) => ({
        method: request.method,
        url: redactedUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
      }),
      err: (error: Error) => loggableError(error) as { type: string; message: string; stack: string },
    },
  };
}

/**
 * The server's log: JSON lines, what a log shipper reads (journald, a container runtime, a file),
 * unless its output is a terminal, where a person reads it as it comes: then readable lines. The
 * prettifier is loaded only then, so a production start carries none of it.
 */
export async function serverLogger(level: string, terminal: boolean): Promise<Exclude<FastifyServerOptions['logger'], boolean | undefined>> {
  if (!terminal) return { level };
  const { default: pretty } = await import('pino-pretty');
  return { level, stream: pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }) };
}

/**
 * The log of what happens outside requests before and beside the app (the start, the database's
 * connections): the same lines, level and error form as the server's own, written at once (a
 * refused start exits right after its line).
 */
export async function processLogger(level: string, terminal: boolean): Promise<Logger> {
  const { stream, ...options } = (await serverLogger(level, terminal)) as { level: string; stream?: DestinationStream };
  return pino({ ...options, serializers: { err: loggableError } }, stream ?? pino.destination({ sync: true }));
}
