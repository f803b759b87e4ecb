import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { changePasswordInput, errorResponse, loginAnswer, profileSchema, refreshInput, tokenInput, tokenPair, updateProfileInput } from '@siteboard/shared';
import { setDeviceCookie } from './auth.throttle';
import { changeOwnPassword, getProfile, login, refresh, revoke, updateProfile } from './auth.service';

/** Public: getting, rotating and ending a token pair. */
export const authPublicRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = { db: app.db, tokens: app.tokens, throttle: app.loginThrottle };

  app.post('/api/token/', {
    config: { setsDeviceCookie: true },
    schema: { tags: ['auth'], summary: 'Sign in (must_change_password: the web asks for a new password first)', body: tokenInput, response: { 200: loginAnswer, 400: errorResponse, 401: errorResponse, 429: errorResponse } },
    handler: async (request, reply) => {
      const { answer, device } = await login(deps, request.body, { address: request.ip, cookies: request.cookies });
      setDeviceCookie(request, reply, device);
      return answer;
    },
  });

  app.post('/api/token/refresh/', {
    schema: { tags: ['auth'], summary: 'Rotate a refresh token', description: 'Spends the refresh token and answers a new pair. The same token sent again within 30 s, while its successor is unused, answers that successor again (a lost answer, two tabs); any other reuse ends the whole login (401).', body: refreshInput, response: { 200: tokenPair, 400: errorResponse, 401: errorResponse } },
    handler: async (request) => refresh(deps, request.body.refresh),
  });

  app.post('/api/token/revoke/', {
    schema: { tags: ['auth'], summary: 'Sign out: end this login everywhere', body: refreshInput, response: { 204: z.null().describe('Signed out'), 400: errorResponse } },
    handler: async (request, reply) => {
      await revoke(deps, request.body.refresh);
      return reply.code(204).send(null);
    },
  });
};

export const authProtectedRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/profile/', {
    config: { beforePasswordChange: true },
    schema: { tags: ['auth'], summary: 'The signed-in user, with their language and time zone', security: [{ bearer: [] }], response: { 200: profileSchema, 401: errorResponse } },
    handler: async (request) => getProfile(request.ctx),
  });

  app.patch('/api/profile/', {
    schema: {
      tags: ['auth'],
      summary: 'Change your own profile: language, time zone (null: the company\'s), name, notification e-mails',
      security: [{ bearer: [] }],
      body: updateProfileInput,
      response: { 200: profileSchema, 400: errorResponse, 401: errorResponse },
    },
    handler: async (request) => {
      const profile = await updateProfile(request.ctx, request.body);
      // The answer is already in the new language.
      request.user = { ...request.user, language: profile.language };
      return profile;
    },
  });

  app.post('/api/profile/password/', {
    config: { beforePasswordChange: true },
    schema: {
      tags: ['auth'],
      summary: 'Change your own password (current_password, or the sign-in\'s password_proof at the forced change): your other sessions end, this one goes on; wrong current passwords are throttled as sign-ins are',
      security: [{ bearer: [] }],
      body: changePasswordInput,
      response: { 204: z.null().describe('Password changed'), 400: errorResponse, 401: errorResponse, 429: errorResponse },
    },
    handler: async (request, reply) => {
      await changeOwnPassword(request.ctx, request.loginFamily, request.body, { throttle: app.loginThrottle, clientKey: request.ip, tokens: app.tokens });
      return reply.code(204).send(null);
    },
  });
};
