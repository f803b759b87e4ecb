import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyListItem, errorResponse, signupInput, userSchema, verifyCompanyPasswordFailure, verifyCompanyPasswordInput, verifyCompanyPasswordSuccess } from '@siteboard/shared';
import { ForbiddenError, ValidationError } from '../../lib/errors';
import { listCompanies } from './companies.queries';
import { signup, verifyCompanyPassword } from './companies.service';

/** Public: the company step before sign-in, and creating a company. */
export const companiesRoutes: FastifyPluginAsyncZod<{ allowSignup: boolean }> = async (app, options) => {
  app.get('/api/companies/', {
    schema: { tags: ['companies'], summary: 'List companies', response: { 200: z.array(companyListItem) } },
    handler: async () => (await listCompanies(app.db)).map((company) => ({ id: company.id, company_id: company.id, name: company.name })),
  });

  app.post('/api/verify-company-password/', {
    schema: {
      tags: ['companies'],
      summary: 'Check a company password before sign-in',
      body: verifyCompanyPasswordInput,
      response: { 200: verifyCompanyPasswordSuccess, 400: verifyCompanyPasswordFailure.or(errorResponse), 429: errorResponse },
    },
    handler: async (request, reply) => {
      try {
        const companyId = await verifyCompanyPassword({ db: app.db, throttle: app.loginThrottle }, request.body, request.ip);
        return { success: true as const, company_id: companyId };
      } catch (error) {
        // The spec's client reads `error` from this call's failure.
        if (error instanceof ValidationError) return reply.code(400).send({ success: false as const, error: error.detail });
        throw error;
      }
    },
  });

  app.post('/api/signup/', {
    schema: {
      tags: ['companies'],
      summary: 'Create a company and its first admin',
      body: signupInput,
      response: { 201: z.object({ company_id: z.number(), user: userSchema }), 400: errorResponse, 403: errorResponse, 409: errorResponse },
    },
    handler: async (request, reply) => {
      if (!options.allowSignup) throw new ForbiddenError('Sign-up is turned off on this server.');
      return reply.code(201).send(await signup(app.db, request.body));
    },
  });
};
