import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

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

/** Security headers on every answer (HTML, JSON, files, errors), by @fastify/helmet. */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(helmet, {
      contentSecurityPolicy: { useDefaults: false, directives: APP_CSP_DIRECTIVES },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      strictTransportSecurity: false,
    });
    // The protocol the client used: behind a trusted proxy, the one it reports.
    app.addHook('onRequest', async (request, reply) => {
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
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
