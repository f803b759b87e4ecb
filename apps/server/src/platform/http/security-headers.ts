import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/** HSTS for a year, sent only on answers to HTTPS requests (a plain-HTTP answer cannot vouch for HTTPS). */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The app's own files only: scripts, styles, images (the build inlines its smallest as data:),
 * fonts, and API and WebSocket calls to the same origin ('self' covers ws: and wss: there). No
 * inline script anywhere, never framed.
 */
export const APP_CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'"],
  // blob: the record's photos are fetched with the bearer token and shown through object URLs.
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: APP_CSP_DIRECTIVES },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  strictTransportSecurity: false,
};

/**
 * The headers helmet sets, worked out once: none of them depends on the request (no nonces). The
 * Fastify wrapper (@fastify/helmet) built helmet's middleware again on every request, parsing the
 * policy each time: ~6 % of the server's CPU on a list call (decision record 038).
 */
export function helmetHeaders(options: HelmetOptions = HELMET_OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  } as unknown as ServerResponse;
  helmet(options)({} as IncomingMessage, response, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/** Security headers on every answer (HTML, JSON, files, errors): helmet's, set as one object per request. */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    const headers = helmetHeaders();
    // The protocol the client used: behind a trusted proxy, the one it reports.
    const overHttps = { ...headers, 'strict-transport-security': HSTS };
    app.addHook('onRequest', async (request, reply) => {
      reply.headers(request.protocol === 'https' ? overHttps : headers);
    });
  },
  { name: 'security-headers' },
);

/**
 * /api/docs (swagger-ui) needs its own inline script and styles: its static answers carry
 * swagger-ui's policy (with their hashes), made as strict as the app's elsewhere: never framed,
 * no third-party sources, and no upgrade that would break the docs on plain HTTP.
 */
export function docsCsp(header: string): string {
  return header
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive && directive !== 'upgrade-insecure-requests')
    .map((directive) => {
      if (directive.startsWith('frame-ancestors')) return "frame-ancestors 'none'";
      return directive
        .split(/\s+/)
        .filter((source) => source !== 'https:' && source !== 'validator.swagger.io')
        .join(' ');
    })
    .join('; ');
}
