import net from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * How long a shutdown may take before the process exits anyway (code 1): requests still running
 * by then (a long export) are cut off. Within systemd's stop timeout (deploy/siteboard.service).
 */
export const SHUTDOWN_TIMEOUT_MS = 25_000;

/** How long the listener stays open after the last new connection once draining: clients already connecting get in. */
const DRAIN_QUIET_MS = 100;
/** The longest the listener stays open while connections keep coming. */
const DRAIN_ACCEPT_MAX_MS = 2_000;

/**
 * Counts the requests in flight and drains on shutdown, the same whatever the database: stop
 * accepting, answer every request already sent, then close. Fastify's own close (with
 * `return503OnClosing`) alone is not enough: it answers 503 to requests already written before the
 * signal and drops connections the kernel had accepted whose request was not read yet (19 of 50
 * in server.test.ts; decision record 085). So this keeps the listener open while clients are still
 * connecting, answers what the accepted connections hold, and only then hands over to app.close().
 */
export function trackRequests(app: FastifyInstance) {
  let inFlight = 0;
  let draining = false;
  let lastConnectionAt = 0;
  let connections = 0;
  let idle: (() => void) | undefined;
  // Counted on the HTTP server itself: every request, answered or aborted, ends with its response's
  // close; WebSocket upgrades are not requests here (the app closes them itself).
  app.server.on('request', (_request, response) => {
    inFlight++;
    response.once('close', () => {
      inFlight--;
      if (inFlight === 0) idle?.();
    });
  });
  app.server.on('connection', () => {
    connections++;
    lastConnectionAt = performance.now();
  });
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close');
  });

  return {
    /** Requests received and not yet answered (or aborted). */
    get inFlight() {
      return inFlight;
    },
    /** Whether a drain has begun: the readiness check answers 503 from then on. */
    get draining() {
      return draining;
    },
    async drain() {
      draining = true;
      // Connections the kernel has completed may still wait to be accepted: keep the listener open
      // until none has come for a moment (a load balancer has stopped sending by then), and until a
      // turn of the event loop after the signal accepted none: on a busy machine the process may not
      // have run for longer than that moment, while clients kept connecting (11 of 50 lost in CI).
      const started = performance.now();
      let acceptedThisTurn: boolean;
      do {
        const before = connections;
        await new Promise((resolve) => setTimeout(resolve, DRAIN_QUIET_MS / 4));
        acceptedThisTurn = connections !== before;
      } while ((acceptedThisTurn || performance.now() - lastConnectionAt < DRAIN_QUIET_MS) && performance.now() - started < DRAIN_ACCEPT_MAX_MS);
      // net.Server's close, not http.Server's: the latter also drops accepted connections whose request is not read yet.
      net.Server.prototype.close.call(app.server);
      // Two turns of the event loop read whatever the accepted connections already hold.
      for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
      if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
      // Now close() refuses late requests on kept-alive connections with 503 (return503OnClosing),
      // closes idle ones, closes the WebSockets with 1001 and runs the onClose hooks.
      await app.close();
    },
  };
}
