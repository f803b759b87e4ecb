import type { FastifyInstance, FastifyReply, FastifyRequest, preParsingAsyncHookHandler, preValidationAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { idParams, type Role } from '@siteboard/shared';
import type { AuthUser, ServiceContext } from '../context';
import type { DbOrTx } from '../database/types';
import { ForbiddenError, NotFoundError, PasswordChangeRequiredError, UnauthorizedError } from '../errors';
import { createIdentityCache, type IdentityClaims } from '../identity-cache';
import { claimedDoneAt } from './done-at';
import { keyUsedBefore } from './idempotency';

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser;
    /** The service context of a protected request: set by `authenticate`. */
    ctx: ServiceContext;
    /** The refresh-token family of the login the access token belongs to (decision record 001). */
    loginFamily: string;
    /** The route's guards refused a retry of a used key before its body: asked again after the key's check (`guardedBy`). */
    guardsDeferred: boolean;
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
    app.decorateRequest('guardsDeferred', false);
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
      request.ctx = { db: app.db, user: identity, doneAt: claimedDoneAt(request.headers, new Date()) };
    });
  },
  { name: 'auth', dependencies: ['db'] },
);

/** A check of who may call a route, on what its path names; throws the refusal (403, 404, 409). */
export type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * Role guard: `...guardedBy(requireRole('admin'))`. A caller who may not use the route learns
 * nothing about its input (403, not 400).
 */
export function requireRole(...roles: Role[]): Guard {
  return async (request) => {
    if (!roles.includes(request.user.role)) throw new ForbiddenError();
  };
}

/**
 * Guard: the object the path's `id` names is the caller's company's (`exists` finds it), else 404
 * with `notFound`. An id that names nothing is left to validation (400).
 */
export function foundInCompany(exists: (db: DbOrTx, companyId: number, id: number) => Promise<unknown>, notFound: string): Guard {
  return async (request) => {
    const parsed = idParams.safeParse(request.params);
    if (parsed.success && !(await exists(request.ctx.db, request.user.companyId, parsed.data.id))) throw new NotFoundError(notFound);
  };
}

/**
 * A route's guards, asked before its body is read: a caller who may not use the route, or names
 * an object they may not touch, is refused (403, 404) before anything of the body is parsed,
 * validated or streamed to disk, so a malformed body or a 100 MB upload to someone else's
 * subtask gets the refusal, not a 400 or 413. The guards read the path's raw parameters (ones that
 * name nothing are left to validation) and the services ask again under their locks when they
 * write. One exception keeps a retry exactly-once: a refused write whose Idempotency-Key its user
 * already used is let through to the key's check, which answers it with the first request's
 * answer (or 422 for another request); should it have to run after all, the guards are asked
 * again there, inside the write's transaction.
 */
export function guardedBy(...guards: Guard[]): { preParsing: preParsingAsyncHookHandler; preValidation: preValidationAsyncHookHandler } {
  const check = async (request: FastifyRequest, reply: FastifyReply) => {
    for (const guard of guards) await guard(request, reply);
  };
  return {
    preParsing: async (request, reply) => {
      try {
        await check(request, reply);
      } catch (error) {
        if (!(await keyUsedBefore(request.ctx.db, request))) throw error;
        request.guardsDeferred = true;
      }
      return undefined;
    },
    preValidation: async (request, reply) => {
      if (request.guardsDeferred) await check(request, reply);
    },
  };
}
