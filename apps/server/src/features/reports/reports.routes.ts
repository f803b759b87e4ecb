import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PERMISSIONS, appraisalItemSchema, appraisalQuery, errorResponse, exportFormatParam, managerAppraisalQuery } from '@siteboard/shared';
import { jsonOrFiles, sendListAs } from '../../lib/exports';
import { sendPage } from '../../lib/lists';
import { guardedBy, requireRole } from '../../platform';
import { appraiseeFirst, appraisalPdf, appraisalReport, appraisalReportExport, managerAppraisalReport, managerAppraisalReportExport } from './reports.service';
import { sendDownload } from '../../lib/downloads';

const tags = ['reports'];
const security = [{ bearer: [] }];
const refusals = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const appraisalFileQuery = appraisalQuery.safeExtend(exportFormatParam);
const teamAppraisalFileQuery = managerAppraisalQuery.safeExtend(exportFormatParam);

export const reportsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/appraisal-report/', {
    ...guardedBy(requireRole(...PERMISSIONS['reports:appraisal']), appraiseeFirst(appraisalFileQuery)),
    schema: {
      tags,
      security,
      summary: "An admin's appraisal of one manager or team member: a one-element list",
      description: 'As CSV or xlsx: the subtasks behind the counts, one a row.',
      querystring: appraisalFileQuery,
      response: { 200: jsonOrFiles(z.array(appraisalItemSchema)), ...refusals },
    },
    handler: async (request, reply) => sendListAs(request, reply, () => appraisalReport(request.ctx, request.query), () => appraisalReportExport(request.ctx, request.query)),
  });

  app.get('/projects/api/manager-appraisal-report/', {
    ...guardedBy(requireRole(...PERMISSIONS['reports:team']), appraiseeFirst(teamAppraisalFileQuery)),
    schema: {
      tags,
      security,
      summary: "Appraisals of a manager's own team, or of every manager and team member for an admin; user_id narrows it to one person",
      querystring: teamAppraisalFileQuery,
      response: { 200: jsonOrFiles(z.array(appraisalItemSchema)), ...refusals },
    },
    handler: async (request, reply) =>
      sendListAs(request, reply, async () => sendPage(reply, await managerAppraisalReport(request.ctx, request.query)), () => managerAppraisalReportExport(request.ctx, request.query)),
  });

  app.get('/api/generate-appraisal-pdf/', {
    ...guardedBy(requireRole(...PERMISSIONS['reports:appraisal']), appraiseeFirst(appraisalQuery)),
    schema: {
      tags,
      security,
      summary: "An admin's appraisal of one manager or team member as a PDF download (appraisal_report.pdf)",
      querystring: appraisalQuery,
      response: {
        200: { description: 'The report as a PDF file', content: { 'application/pdf': { schema: z.custom<Buffer>((value) => Buffer.isBuffer(value)).meta({ type: 'string', format: 'binary' }) } } },
        ...refusals,
      },
    },
    handler: async (request, reply) => {
      const pdf = await appraisalPdf(request.ctx, request.query);
      // Never kept by a cache, as every other download: one person's appraisal.
      return sendDownload(reply, 'application/pdf', 'appraisal_report.pdf', pdf);
    },
  });
};
