import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What a proxy's id may look like (nginx's $request_id is 32 hex digits): nothing that could forge a log line. */
const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:@+=/-]{0,127}$/;

/**
 * Fastify's `genReqId`: every log line of a request carries this id, and the answer names it. A
 * proxy in front (TRUST_PROXY) that already gave the request an id is believed, so the proxy's log
 * and the app's share it; anyone else's id is replaced, so a client cannot pass as another request.
 */
export function requestIds(trustProxy: boolean | number | string): (request: IncomingMessage) => string {
  const trusted = trustedPeer(trustProxy);
  return (request) => {
    const offered = request.headers[REQUEST_ID_HEADER];
    if (typeof offered === 'string' && SANE_REQUEST_ID.test(offered) && trusted(request.socket.remoteAddress ?? '')) return offered;
    return randomUUID();
  };
}

/** Whether the direct peer is a proxy the configuration trusts (TRUST_PROXY: a hop count trusts whoever is next). */
function trustedPeer(trustProxy: boolean | number | string): (address: string) => boolean {
  if (typeof trustProxy === 'boolean') return () => trustProxy;
  if (typeof trustProxy === 'number') return () => trustProxy > 0;
  const trusts = proxyAddr.compile(trustProxy.split(',').map((entry) => entry.trim()));
  return (address) => trusts(address, 0);
}

/** Names each request's id in its answer, so a person reporting a failure can quote it. */
export const requestIdPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request, reply) => {
      reply.header(REQUEST_ID_HEADER, request.id);
    });
  },
  { name: 'request-id' },
);
