import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TOTAL_COUNT_HEADER, companyListItem, companyLoginPageSchema, idParams, companyListQuery, errorResponse, signupInput, translateMessage, userSchema, verifyCompanyPasswordFailure, verifyCompanyPasswordInput, verifyCompanyPasswordSuccess } from '@siteboard/shared';
import { readerLanguage, ForbiddenError, ValidationError } from '../../platform';
import { sendPage } from '../../lib/lists';
import { setDeviceCookie } from '../auth/auth.throttle';
import { findLoginCompany, listVisibleCompanies, signup, verifyCompanyPassword } from './companies.service';

/** Public: the company step before sign-in, and creating a company. */
export const companiesRoutes: FastifyPluginAsyncZod<{ allowSignup: boolean; publicCompanyList: boolean }> = async (app, options) => {
  app.get('/api/companies/', {
    // Published, the list is anyone's; otherwise a signed-in caller reads their own company.
    onRequest: options.publicCompanyList ? [] : [app.authenticate],
    schema: {
      tags: ['companies'],
      summary: options.publicCompanyList ? 'List companies' : "The caller's own company, as a one-element list",
      description: `Every company, a page at a time, only where the server sets PUBLIC_COMPANY_LIST=true; otherwise a signed-in user's own company. The answer carries ${TOTAL_COUNT_HEADER}.`,
      security: options.publicCompanyList ? [] : [{ bearer: [] }],
      querystring: companyListQuery,
      response: { 200: z.array(companyListItem), 400: errorResponse, 401: errorResponse },
    },
    handler: async (request, reply) => sendPage(reply, await listVisibleCompanies(app.db, options.publicCompanyList ? undefined : request.user, request.query)),
  });

  app.get('/api/companies/:id/', {
    schema: {
      tags: ['companies'],
      summary: 'Whether a company exists, for its sign-in page',
      description: 'Public: answers the id of an existing company (never its name), 404 for an unknown one.',
      params: idParams,
      response: { 200: companyLoginPageSchema, 400: errorResponse, 404: errorResponse },
    },
    handler: async (request) => findLoginCompany(app.db, request.params.id),
  });

  app.post('/api/verify-company-password/', {
    config: { setsDeviceCookie: true },
    schema: {
      tags: ['companies'],
      summary: 'Check a company password before sign-in',
      body: verifyCompanyPasswordInput,
      response: { 200: verifyCompanyPasswordSuccess, 400: verifyCompanyPasswordFailure.or(errorResponse), 429: errorResponse },
    },
    handler: async (request, reply) => {
      try {
        const { company, device } = await verifyCompanyPassword({ db: app.db, throttle: app.loginThrottle }, request.body, { address: request.ip, cookies: request.cookies });
        setDeviceCookie(request, reply, device);
        return { success: true as const, company_id: company.id, company_name: company.name };
      } catch (error) {
        // The spec's client reads `error` from this call's failure.
        if (error instanceof ValidationError) return reply.code(400).send({ success: false as const, error: translateMessage(error.detail, readerLanguage(request)) });
        throw error;
      }
    },
  });

  app.post('/api/signup/', {
    schema: {
      tags: ['companies'],
      summary: 'Create a company and its first admin',
      body: signupInput,
      response: { 201: z.object({ company_id: z.number(), user: userSchema }), 400: errorResponse, 403: errorResponse, 409: errorResponse, 429: errorResponse },
    },
    handler: async (request, reply) => {
      if (!options.allowSignup) throw new ForbiddenError('Sign-up is turned off on this server.');
      return reply.code(201).send(await signup(app.db, request.body, { throttle: app.loginThrottle, clientKey: request.ip }, readerLanguage(request)));
    },
  });
};
