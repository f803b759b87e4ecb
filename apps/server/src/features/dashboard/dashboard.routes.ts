import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminDashboardSchema, dashboardSummarySchema, errorResponse, PERMISSIONS } from '@siteboard/shared';
import { guardedBy, requireRole } from '../../platform';
import { getAdminDashboard, getDashboardSummary } from './dashboard.service';

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
  app.get('/api/admin-dashboard/', {
    ...guardedBy(requireRole(...PERMISSIONS['dashboard:admin'])),
    schema: {
      tags: ['users'],
      summary: "The first page of each of the admin dashboard's lists, in one answer",
      description:
        'Users (50), managers, ongoing and completed projects (10 each, newest first) and the missing daily logs of the last 14 days, each exactly as its own list call answers its first page. Show More and searches use those list calls.',
      security: [{ bearer: [] }],
      response: { 200: adminDashboardSchema, 401: errorResponse, 403: errorResponse },
    },
    handler: async (request) => getAdminDashboard(request.ctx),
  });
};
