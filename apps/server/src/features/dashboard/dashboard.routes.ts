import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dashboardSummarySchema, errorResponse } from '@siteboard/shared';
import { getDashboardSummary } from './dashboard.service';

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/dashboard-summary/', {
    schema: {
      tags: ['tasks'],
      summary: "The counts of the caller's dashboard cards",
      security: [{ bearer: [] }],
      response: { 200: dashboardSummarySchema, 401: errorResponse },
    },
    handler: async (request) => getDashboardSummary(request.ctx),
  });
};
