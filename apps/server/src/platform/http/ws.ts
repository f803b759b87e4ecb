import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { WebSocket } from 'ws';
import { LIVE_CLOSE_CODES, LIVE_PROTOCOL } from '@siteboard/shared';

/** Clients only listen: anything they send beyond this closes the connection. */
const MAX_INBOUND_BYTES = 4 * 1024;
/** How long a shutdown waits for clients to answer the close before it cuts them off. */
const CLOSE_GRACE_MS = 1_000;

/**
 * WebSockets on the HTTP port. No per-message compression (its memory per socket is the known
 * way to exhaust a server); on shutdown every socket is closed with 1001 "going away", so
 * clients reconnect to another instance.
 */
export const wsPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(websocket, {
      options: {
        perMessageDeflate: false,
        maxPayload: MAX_INBOUND_BYTES,
        // A client that offers subprotocols (its token rides as one of them) gets ours back, never
        // its token; one that offers none (the specification's `?token=`) gets none.
        handleProtocols: (offered) => (offered.has(LIVE_PROTOCOL) ? LIVE_PROTOCOL : false),
      },
      preClose: async function closeSockets(this: FastifyInstance) {
        await Promise.all([...this.websocketServer.clients].map(closeGoingAway));
        await new Promise<void>((resolve) => this.websocketServer.close(() => resolve()));
      },
    });
    app.metrics.observe({ type: 'gauge', name: 'siteboard_websocket_connections', help: 'Open WebSocket connections (live notifications).', read: () => app.websocketServer.clients.size });
  },
  { name: 'ws', dependencies: ['metrics'] },
);

function closeGoingAway(socket: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.readyState === socket.CLOSED) return resolve();
    const cutOff = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
    socket.once('close', () => {
      clearTimeout(cutOff);
      resolve();
    });
    socket.close(LIVE_CLOSE_CODES.goingAway, 'Server shutting down');
  });
}
