import type { FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fp from 'fastify-plugin';
import { authPlugin, startSweep } from '../../platform';
import { deleteExpiredRateLimits, findActiveIdentity } from './auth.queries';
import { createLoginThrottle, type LoginThrottle, type ThrottleStore } from './auth.throttle';
import { createTokens, type Tokens } from './auth.tokens';

declare module 'fastify' {
  interface FastifyInstance {
    tokens: Tokens;
    loginThrottle: LoginThrottle;
  }
}

/**
 * Sign-in's parts for every scope: the token service, the login throttle, and the platform's
 * `authenticate` hook reading identities through this feature's tokens and queries.
 */
export const authFeaturePlugin = fp(
  async (app: FastifyInstance, options: { jwtSecret: string; throttleStore: ThrottleStore }) => {
    const tokens = createTokens(options.jwtSecret);
    app.decorate('tokens', tokens);
    // Device cookies (auth.throttle.ts) are read and set through @fastify/cookie.
    await app.register(fastifyCookie);
    app.decorate('loginThrottle', createLoginThrottle(options.throttleStore, options.jwtSecret));
    if (options.throttleStore.kind === 'database') sweepExpiredCounters(app);
    await app.register(authPlugin, { verify: tokens.verifyAccess, load: (claims) => findActiveIdentity(app.db, claims) });
  },
  { name: 'auth-feature', dependencies: ['db', 'metrics'] },
);

/** How often, and how long after its window ended, a throttle counter in the database is deleted. */
const COUNTER_SWEEP_MS = 5 * 60 * 1000;
const COUNTER_KEPT_MS = 60 * 60 * 1000;

/**
 * Deletes the database's expired throttle counters every five minutes while the server runs (what
 * rate-limiter-flexible's own timer did once per limiter, and went on doing after the app closed).
 */
function sweepExpiredCounters(app: FastifyInstance) {
  const sweep = startSweep({
    name: 'throttle counter sweep',
    intervalMs: COUNTER_SWEEP_MS,
    log: app.log,
    metrics: app.metrics,
    run: () => deleteExpiredRateLimits(app.db, new Date(Date.now() - COUNTER_KEPT_MS)),
  });
  app.addHook('onClose', async () => sweep.stop());
}
