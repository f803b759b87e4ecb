import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Role } from '@siteboard/shared';
import type { AuthUser, ServiceContext } from '../context';
import { ForbiddenError, PasswordChangeRequiredError, UnauthorizedError } from '../errors';
import { createIdentityCache, type IdentityClaims } from '../identity-cache';

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser;
    /** The service context of a protected request: set by `authenticate`. */
    ctx: ServiceContext;
    /** The refresh-token family of the login the access token belongs to (decision record 001). */
    loginFamily: string;
  }
  interface FastifyInstance {
    authenticate(request: FastifyRequest): Promise<void>;
  }
  interface FastifyContextConfig {
    /** The route answers a user who must still change the password an admin set (their profile, the change itself). */
    beforePasswordChange?: boolean;
  }
}

export interface AuthenticationOptions {
  /** What a valid access token claims, or undefined for any other token. */
  verify(token: string): IdentityClaims | undefined;
  /** The live identity the claims name, read from the database; undefined once the user or login has ended. */
  load(claims: IdentityClaims): Promise<AuthUser | undefined>;
}

/**
 * Adds `app.authenticate`, the onRequest hook of the protected scope: a bearer token, verified,
 * names a live identity (kept in memory until the change feed says it changed), which becomes
 * the request's user and service context.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, options: AuthenticationOptions) => {
    const identities = createIdentityCache(app.database.changes, options.load);
    app.addHook('onClose', async () => identities.close());
    app.decorateRequest('user', null as unknown as AuthUser);
    app.decorateRequest('ctx', null as unknown as ServiceContext);
    app.decorateRequest('loginFamily', '');
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
      if (!token) throw new UnauthorizedError('Authentication credentials were not provided.');
      const claims = options.verify(token);
      if (!claims) throw new UnauthorizedError('Token is invalid or expired.');
      const identity = await identities.find(claims);
      if (!identity) throw new UnauthorizedError('Token is invalid or expired.');
      // Before the route's own guards and validation: nothing else is open until the password is theirs.
      if (identity.mustChangePassword && !request.routeOptions.config.beforePasswordChange) throw new PasswordChangeRequiredError();
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
