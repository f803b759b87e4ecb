import type { FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fp from 'fastify-plugin';
import { authPlugin } from '../../platform';
import { findActiveIdentity } from './auth.queries';
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
    await app.register(authPlugin, { verify: tokens.verifyAccess, load: (claims) => findActiveIdentity(app.db, claims) });
  },
  { name: 'auth-feature', dependencies: ['db'] },
);
