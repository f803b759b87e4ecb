import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Role } from '@siteboard/shared';
import type { AuthUser, ServiceContext } from '../lib/context';
import { ForbiddenError, UnauthorizedError } from '../lib/errors';
import { createIdentityCache } from '../features/auth/identity-cache';
import { createLoginThrottle, type LoginThrottle, type ThrottleStore } from '../features/auth/auth.throttle';
import { createTokens, type Tokens } from '../features/auth/auth.tokens';

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser;
    /** The service context of a protected request: set by `authenticate`. */
    ctx: ServiceContext;
    /** The refresh-token family of the login the access token belongs to (decision record 001). */
    loginFamily: string;
  }
  interface FastifyInstance {
    tokens: Tokens;
    loginThrottle: LoginThrottle;
    authenticate(request: FastifyRequest): Promise<void>;
  }
}

/** Adds the token service, the login throttle and `app.authenticate`, the onRequest hook of the protected scope. */
export const authPlugin = fp(
  async (app: FastifyInstance, options: { jwtSecret: string; throttleStore: ThrottleStore }) => {
    const identities = await createIdentityCache(app.database);
    app.addHook('onClose', () => identities.close());
    app.decorate('tokens', createTokens(options.jwtSecret));
    app.decorate('loginThrottle', createLoginThrottle(options.throttleStore));
    app.decorateRequest('user', null as unknown as AuthUser);
    app.decorateRequest('ctx', null as unknown as ServiceContext);
    app.decorateRequest('loginFamily', '');
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
      if (!token) throw new UnauthorizedError('Authentication credentials were not provided.');
      const claims = app.tokens.verifyAccess(token);
      if (!claims) throw new UnauthorizedError('Token is invalid or expired.');
      const identity = await identities.find(claims);
      if (!identity) throw new UnauthorizedError('Token is invalid or expired.');
      request.user = identity;
      request.loginFamily = claims.family;
      request.ctx = { db: app.db, user: identity };
    });
  },
  { name: 'auth', dependencies: ['db'] },
);

/**
 * Route-level role guard: `preValidation: requireRole('admin')`. It runs before the schema is
 * checked, so a caller who may not use the route learns nothing about its input (403, not 400).
 */
export function requireRole(...roles: Role[]) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    if (!roles.includes(request.user.role)) throw new ForbiddenError();
  };
}
