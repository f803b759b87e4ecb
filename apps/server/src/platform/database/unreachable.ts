import { NO_ANSWER, type DatabaseTimeouts } from './timeouts';

interface FailureFields {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** Why a connection could not be had, in an operator's words, by the error's code or node-postgres's message. */
function reason(error: unknown, timeouts: DatabaseTimeouts): string | undefined {
  for (let current = error, depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { code, message, cause } = current as FailureFields;
    if (code === 'ECONNREFUSED') return 'the connection was refused (is PostgreSQL running there, on that port?)';
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'no such host';
    if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'the host cannot be reached';
    if (code === 'ECONNRESET') return 'the connection was reset';
    if (code === '28P01' || code === '28000') return `the database refused the login: ${String(message)}`;
    if (code === '3D000') return `${String(message)} (create it, or correct the name)`;
    if (code === '57P03') return 'the database is starting up or shutting down';
    if (typeof message === 'string' && /^(timeout expired|Connection terminated due to connection timeout)$/.test(message)) return `no answer within ${timeouts.connectMs / 1000} s`;
    if (typeof message === 'string' && message === 'Connection terminated unexpectedly') return 'the connection was closed before the login finished';
    if (message === NO_ANSWER) return 'it stopped answering after the login';
    current = cause;
  }
  return undefined;
}

/**
 * One line telling an operator why the server could not start on its database, naming where it
 * looked without the password; undefined when `error` is not about reaching it.
 */
export function describeUnreachableDatabase(error: unknown, databaseUrl: string, timeouts: DatabaseTimeouts): string | undefined {
  const why = reason(error, timeouts);
  if (why === undefined) return undefined;
  let where = 'DATABASE_URL';
  try {
    const url = new URL(databaseUrl);
    const shown = `${url.host || 'localhost'}${url.pathname}`;
    // A password with an unencoded `/` ends the login early: the parser then reads the rest of
    // it into the host or the path. Shown only when the login was read as one and nothing of it is left.
    const loginReadWhole = !databaseUrl.includes('@') || url.username !== '';
    if (loginReadWhole && !shown.includes('@')) where = `${url.protocol}//${shown} (DATABASE_URL)`;
  } catch {
    // Not parseable as a URL: name the variable alone.
  }
  return `SiteBoard cannot reach its database at ${where}: ${why}.`;
}
