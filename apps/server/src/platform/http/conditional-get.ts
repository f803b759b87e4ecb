import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, onSendAsyncHookHandler, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';

/** What a signed-in JSON answer depends on besides the URL: each is a separate entry in any cache. */
const VARY = ['Authorization', 'Accept', 'Accept-Language', 'Accept-Encoding'];

/**
 * Headers that carry part of a JSON answer: a list's X-Total-Count is the number of matching rows,
 * which changes when a row is added past the page while the page itself stays the same. A 304 does
 * not repeat them (the browser keeps the stored answer's), so they are part of the tag.
 */
const ANSWER_HEADERS = ['x-total-count'];

/** A strong entity tag of the bytes as they go out (compressed or not: each encoding has its own) and of the answer's headers. */
export function entityTag(payload: string | Buffer, headers: Record<string, unknown> = {}): string {
  const hash = createHash('sha256').update(payload);
  for (const name of ANSWER_HEADERS) if (headers[name] !== undefined) hash.update(`\n${name}: ${String(headers[name])}`);
  return `"${hash.digest('base64url').slice(0, 32)}"`;
}

/**
 * Whether an If-None-Match header names this tag: `*`, or one of a comma list, compared weakly as
 * RFC 9110 asks for If-None-Match (a `W/` prefix does not matter).
 */
export function matchesEntityTag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

const NOT_MODIFIED = z.null().describe('Not modified since the ETag given in If-None-Match: no body');

function addVary(reply: FastifyReply, names: string[]) {
  const current = String(reply.getHeader('vary') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const known = new Set(current.map((name) => name.toLowerCase()));
  reply.header('vary', [...current, ...names.filter((name) => !known.has(name.toLowerCase()))].join(', '));
}

/**
 * Conditional GETs for the scope's JSON reads (decision record 041): every 200 JSON answer carries
 * a strong ETag of its bytes, `Cache-Control: private, no-cache` (the browser keeps it and asks
 * again each time) and `Vary` on everything it depends on; a request whose `If-None-Match` names
 * that tag gets a 304 with no body. A phone on a weak signal downloads nothing when nothing changed,
 * and the web app's fetches get the 304s through the browser's HTTP cache. The tag is of the bytes
 * actually sent (after compression); streamed answers (exports) carry none.
 */
export const conditionalGetPlugin = fp(
  async (app: FastifyInstance) => {
    const tagAndCompare: onSendAsyncHookHandler<unknown> = async (request, reply, payload) => {
      if ((request.method !== 'GET' && request.method !== 'HEAD') || reply.statusCode !== 200) return payload;
      if (!(typeof payload === 'string' || Buffer.isBuffer(payload))) return payload;
      if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
      const etag = entityTag(payload, reply.getHeaders());
      reply.header('etag', etag);
      reply.header('cache-control', 'private, no-cache');
      addVary(reply, VARY);
      if (!matchesEntityTag(request.headers['if-none-match'], etag)) return payload;
      reply.code(304);
      reply.removeHeader('content-length');
      reply.removeHeader('content-encoding');
      reply.removeHeader('content-type');
      // The kept answer has its own, the same: the tag covers it. A 304 carries only what validates and caches it.
      for (const name of ANSWER_HEADERS) reply.removeHeader(name);
      return '';
    };
    // Per route, after the compression plugin's own onSend (it adds it per route as each route is
    // added, and route hooks run after scope hooks): the tag is of the bytes that go out.
    app.addHook('onRoute', (route: RouteOptions) => {
      // The document says so: every documented read of the scope may answer 304 with no body.
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const responses = (route.schema as { response?: Record<string, unknown> } | undefined)?.response;
      if (methods.includes('GET') && responses && !('304' in responses)) responses['304'] = NOT_MODIFIED;
      const own = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
      route.onSend = [...own, tagAndCompare];
    });
  },
  { name: 'conditional-get' },
);
