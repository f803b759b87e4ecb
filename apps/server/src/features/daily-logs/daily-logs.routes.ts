import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PERMISSIONS,
  TOTAL_COUNT_HEADER,
  XLSX_MEDIA_TYPE,
  amendmentInput,
  amendmentSchema,
  dailyLogAttachmentSchema,
  dailyLogEntryInput,
  dailyLogEntrySchema,
  dailyLogInput,
  dailyLogListQuery,
  dailyLogProjectSchema,
  dailyLogProjectsQuery,
  dailyLogRangeQuery,
  dailyLogSchema,
  dailyLogSummarySchema,
  entryParams,
  errorResponse,
  idParams,
  logAttachmentParams,
  movedContributionQuery,
  missingLogsQuery,
  missingLogsSchema,
  projectDateParams,
  signDailyLogInput,
} from '@siteboard/shared';
import { sendCsv } from '../../lib/csv';
import { sendDownload } from '../../lib/downloads';
import { exportFormat } from '../../lib/exports';
import { sendPage } from '../../lib/lists';
import { PHOTO_UPLOAD, photoAnswer, uploadedPhoto } from '../../lib/uploads';
import { abortsWhenConnectionCloses, guardedBy, multipartPlugin, requireRole } from '../../platform';
import {
  addAmendment,
  addEntry,
  addLogPhoto,
  assertMayActOnLog,
  assertMayChangeEntry,
  assertMayRemoveLogPhoto,
  changeEntry,
  dailyLogPdf,
  dailyLogRangePdf,
  dailyLogsCsv,
  dailyLogsXlsx,
  getDailyLog,
  getLogPhoto,
  listDailyLogProjects,
  listDailyLogs,
  listMissingDailyLogs,
  removeEntry,
  removeLogPhoto,
  saveDailyLog,
  signDailyLog,
  DAILY_LOG_RULES,
} from './daily-logs.service';

const tags = ['daily logs'];
const security = [{ bearer: [] }];
const refusals = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const writeRefusals = { ...refusals, 409: errorResponse };

const pdfAnswer = {
  description: 'The log as a PDF file',
  content: { 'application/pdf': { schema: z.custom<Buffer>((value) => Buffer.isBuffer(value)).meta({ type: 'string', format: 'binary' }) } },
};

const sendPdf = (reply: FastifyReply, { pdf, fileName }: { pdf: Buffer; fileName: string }) => sendDownload(reply, 'application/pdf', fileName, pdf);

/** Who may act on the day's log, asked before its body is read or validated (authorisation before validation). */
const may = (rule: keyof typeof DAILY_LOG_RULES) => async (request: FastifyRequest) => assertMayActOnLog(request.ctx, request.params, rule);

/** The daily site log (issue 45): a project's day, its crew's own entries and photos, signing, amendments and exports. */
export const dailyLogsRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipartPlugin);
  const keep = requireRole(...PERMISSIONS['daily-logs:keep']);
  const contribute = requireRole(...PERMISSIONS['daily-logs:contribute']);

  app.get('/api/projects/:id/daily-logs/', {
    schema: {
      tags,
      security,
      summary: "A project's daily logs in a range of days (from, to), oldest first, with their totals",
      description: `Paged with limit and offset; the answer carries the number of logs in the range in the ${TOTAL_COUNT_HEADER} header. A day nobody opened has no log. With format=csv or format=xlsx (or Accept: text/csv or the workbook's type): the range's logs line by line with totals (man-hours by trade and company, hours lost to delays).`,
      params: idParams,
      querystring: dailyLogListQuery,
      response: {
        200: {
          description: 'The logs; with format=csv or format=xlsx a file download',
          content: { 'application/json': { schema: z.array(dailyLogSummarySchema) }, 'text/csv': { schema: z.string() }, [XLSX_MEDIA_TYPE]: { schema: z.string().meta({ format: 'binary' }) } },
        },
        ...refusals,
      },
    },
    handler: async (request, reply) => {
      const format = exportFormat(request);
      if (format === 'csv') return sendCsv(reply, await dailyLogsCsv(request.ctx, request.params.id, request.query));
      if (format === 'xlsx') {
        const workbook = await dailyLogsXlsx(request.ctx, request.params.id, request.query);
        return sendDownload(reply, XLSX_MEDIA_TYPE, workbook.fileName, workbook.stream);
      }
      return sendPage(reply, await listDailyLogs(request.ctx, request.params.id, request.query));
    },
  });

  app.get('/api/projects/:id/daily-logs/pdf/', {
    schema: { tags, security, summary: "A range of the project's daily logs as one PDF (a summary, then each logged day)", params: idParams, querystring: dailyLogRangeQuery, response: { 200: pdfAnswer, ...refusals } },
    handler: async (request, reply) => sendPdf(reply, await dailyLogRangePdf(request.ctx, request.params.id, request.query)),
  });

  app.get('/api/projects/:id/daily-logs/:date/', {
    schema: {
      tags,
      security,
      summary: "One day's whole log, the day's record of work included; a day nobody opened is an empty draft",
      params: projectDateParams,
      response: { 200: dailyLogSchema, ...refusals },
    },
    handler: async (request) => getDailyLog(request.ctx, request.params.id, request.params.date),
  });

  app.put('/api/projects/:id/daily-logs/:date/', {
    ...guardedBy(keep, may('keep')),
    schema: {
      tags,
      security,
      summary: "The manager's sections of the day's log (those sent replace the stored ones) and their notes on the day's work; opens the log if need be",
      description: 'The project’s manager and admins. A signed log answers 409: correct it with an amendment.',
      params: projectDateParams,
      body: dailyLogInput,
      response: { 200: dailyLogSchema, ...writeRefusals },
    },
    handler: async (request) => saveDailyLog(request.ctx, request.params.id, request.params.date, request.body),
  });

  app.post('/api/projects/:id/daily-logs/:date/sign/', {
    ...guardedBy(keep, may('keep')),
    schema: { tags, security, summary: "Sign the day's log: read-only from now on, with who signed and when", params: projectDateParams, body: signDailyLogInput, response: { 200: dailyLogSchema, ...writeRefusals } },
    handler: async (request) => signDailyLog(request.ctx, request.params.id, request.params.date),
  });

  app.post('/api/projects/:id/daily-logs/:date/amendments/', {
    ...guardedBy(keep, may('amend')),
    schema: {
      tags,
      security,
      summary: 'Correct a signed log: why and what changed, kept beside the original',
      params: projectDateParams,
      body: amendmentInput,
      response: { 201: amendmentSchema, ...writeRefusals },
    },
    handler: async (request, reply) => reply.code(201).send(await addAmendment(request.ctx, request.params.id, request.params.date, request.body)),
  });

  app.post('/api/projects/:id/daily-logs/:date/entries/', {
    ...guardedBy(contribute, may('contribute')),
    schema: {
      tags,
      security,
      summary: "One's own hours and note on the day's log (people with work in the project); opens the log if need be",
      params: projectDateParams,
      querystring: movedContributionQuery,
      body: dailyLogEntryInput,
      response: { 201: dailyLogEntrySchema, ...writeRefusals },
    },
    handler: async (request, reply) => reply.code(201).send(await addEntry(request.ctx, request.params.id, request.params.date, request.query.for_date, request.body)),
  });

  const mayChangeEntry = async (request: FastifyRequest) => assertMayChangeEntry(request.ctx, request.params);

  app.patch('/api/projects/:id/daily-logs/:date/entries/:entryId/', {
    ...guardedBy(contribute, mayChangeEntry),
    schema: { tags, security, summary: "Change one's own entry until the log is signed", params: entryParams, body: dailyLogEntryInput, response: { 200: dailyLogEntrySchema, ...writeRefusals } },
    handler: async (request) => changeEntry(request.ctx, request.params.id, request.params.date, request.params.entryId, request.body),
  });

  app.delete('/api/projects/:id/daily-logs/:date/entries/:entryId/', {
    ...guardedBy(contribute, mayChangeEntry),
    schema: { tags, security, summary: "Remove one's own entry until the log is signed", params: entryParams, response: { 204: z.null().describe('Removed'), ...writeRefusals } },
    handler: async (request, reply) => {
      await removeEntry(request.ctx, request.params.id, request.params.date, request.params.entryId);
      return reply.code(204).send(null);
    },
  });

  app.post('/api/projects/:id/daily-logs/:date/attachments/', {
    ...guardedBy(contribute, may('contribute')),
    config: { upload: PHOTO_UPLOAD },
    schema: {
      tags,
      security,
      summary: 'Add a photo to the day\'s log (multipart/form-data, field "file": JPEG, PNG, WebP or HEIC, at most 10 MB); processed as subtask photos are',
      params: projectDateParams,
      querystring: movedContributionQuery,
      consumes: ['multipart/form-data'],
      response: { 201: dailyLogAttachmentSchema, 413: errorResponse, 503: errorResponse.describe('Busy with other photos: try again after Retry-After'), ...writeRefusals },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await addLogPhoto(request.ctx, request.params.id, request.params.date, request.query.for_date, uploadedPhoto(request).path, abortsWhenConnectionCloses(reply))),
  });

  app.delete('/api/projects/:id/daily-logs/:date/attachments/:attachmentId/', {
    ...guardedBy(contribute, async (request) => assertMayRemoveLogPhoto(request.ctx, request.params)),
    schema: { tags, security, summary: "Remove one's own photo until the log is signed", params: logAttachmentParams, response: { 204: z.null().describe('Removed'), ...writeRefusals } },
    handler: async (request, reply) => {
      await removeLogPhoto(request.ctx, request.params.id, request.params.date, request.params.attachmentId);
      return reply.code(204).send(null);
    },
  });

  app.get('/api/projects/:id/daily-logs/:date/pdf/', {
    schema: { tags, security, summary: "One day's log as a PDF: every section, photos as thumbnails, the signature line", params: projectDateParams, response: { 200: pdfAnswer, ...refusals } },
    handler: async (request, reply) => sendPdf(reply, await dailyLogPdf(request.ctx, request.params.id, request.params.date)),
  });

  for (const which of ['image', 'thumbnail'] as const) {
    app.get(which === 'image' ? '/api/daily-log-attachments/:id/' : '/api/daily-log-attachments/:id/thumbnail/', {
      schema: { tags, security, summary: which === 'image' ? "A photo of a daily log" : "A daily log photo's thumbnail (JPEG, at most 400 px)", params: idParams, response: { 200: photoAnswer(which), 401: errorResponse, 404: errorResponse } },
      handler: async (request, reply) => {
        const photo = await getLogPhoto(request.ctx, request.params.id, which);
        // A photo never changes under its id: a phone keeps it for a year, for this user only.
        return reply.header('Content-Type', photo.contentType).header('Cache-Control', 'private, max-age=31536000, immutable').send(photo.bytes);
      },
    });
  }

  app.get('/api/daily-logs/projects/', {
    schema: {
      tags,
      security,
      summary: "The projects whose daily logs the caller keeps or adds to, each with its own today: an admin's every project, a manager's own and those they have work in, a team member's with work",
      querystring: dailyLogProjectsQuery,
      response: { 200: z.array(dailyLogProjectSchema), 400: errorResponse, 401: errorResponse },
    },
    handler: async (request, reply) => sendPage(reply, await listDailyLogProjects(request.ctx, request.query)),
  });

  app.get('/api/daily-logs/missing/', {
    ...guardedBy(requireRole(...PERMISSIONS['daily-logs:missing'])),
    schema: {
      tags,
      security,
      summary: 'For admins: the open projects with working days (of the last `days`) that have no signed log',
      querystring: missingLogsQuery,
      response: { 200: z.array(missingLogsSchema), 400: errorResponse, 401: errorResponse, 403: errorResponse },
    },
    handler: async (request, reply) => sendPage(reply, await listMissingDailyLogs(request.ctx, request.query)),
  });
};
