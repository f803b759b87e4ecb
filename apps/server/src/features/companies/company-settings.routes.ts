import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PERMISSIONS, companyPasswordInput, companySettingsSchema, errorResponse, updateCompanySettingsInput } from '@siteboard/shared';
import { guardedBy, requireRole } from '../../platform';
import { changeCompanyPassword, getCompanySettings, updateCompanySettingsFor } from './company-settings.service';

const tags = ['companies'];
const security = [{ bearer: [] }];

/** The signed-in user's own company: everyone reads it, an admin renames it or changes its time zone. */
export const companySettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/company/', {
    schema: { tags, summary: "The caller's company: id, name, time zone and new users' language", security, response: { 200: companySettingsSchema, 401: errorResponse } },
    handler: async (request) => getCompanySettings(request.ctx),
  });

  app.patch('/api/company/', {
    ...guardedBy(requireRole(...PERMISSIONS['company:manage'])),
    schema: {
      tags,
      summary: "Rename the caller's company, change its time zone (IANA name) or its new users' language",
      security,
      body: updateCompanySettingsInput,
      response: { 200: companySettingsSchema, 400: errorResponse, 401: errorResponse, 403: errorResponse, 409: errorResponse },
    },
    handler: async (request) => updateCompanySettingsFor(request.ctx, request.body),
  });

  app.put('/api/company/password/', {
    ...guardedBy(requireRole(...PERMISSIONS['company:manage'])),
    schema: {
      tags,
      summary: "Change the caller's company password (the one typed with its name at the sign-in page's company step); nobody is signed out",
      security,
      body: companyPasswordInput,
      response: { 204: z.null().describe('Changed'), 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse },
    },
    handler: async (request, reply) => {
      await changeCompanyPassword(request.ctx, request.body);
      return reply.code(204).send(null);
    },
  });
};
