import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ONE_DRAWING_PER_REQUEST,
  PERMISSIONS,
  SHEET_IMAGE_MAX_BYTES,
  SHEET_MAX_PAGES,
  SHEET_PDF_MAX_BYTES,
  SHEET_TOO_LARGE,
  errorResponse,
  idParams,
  sheetDetailSchema,
  sheetListQuery,
  sheetPinSchema,
  sheetSchema,
  translateMessage,
  updateSheetInput,
  wholeNumber,
  type Sheet,
} from '@siteboard/shared';
import { sendPage } from '../../lib/lists';
import { guardedBy, isMultipartBody, multipartPlugin, readerLanguage, requireRole, type UploadLimits } from '../../platform';
import { assertMayKeep, assertMayRead, deleteSheet, getSheet, listSheetPins, listSheets, renameSheet, sheetFile, uploadSheets, uploadVersion } from './sheets.service';

const tags = ['drawings'];
const security = [{ bearer: [] }];
const refusals = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

/** One drawing per upload: a PDF of at most 200 MB (an image's 50 MB is checked once its type is known). */
const MB = 1024 * 1024;
const DRAWING_UPLOAD: UploadLimits = {
  fileBytes: SHEET_PDF_MAX_BYTES,
  files: 1,
  fields: 5,
  tooLarge: SHEET_TOO_LARGE,
  tooMany: ONE_DRAWING_PER_REQUEST,
  file: `One drawing: a PDF of at most ${SHEET_PDF_MAX_BYTES / MB} MB and ${SHEET_MAX_PAGES} pages (each page a sheet), or a JPEG, PNG or WebP image of at most ${SHEET_IMAGE_MAX_BYTES / MB} MB`,
};

const tileParams = z.object({
  id: idParams.shape.id,
  level: wholeNumber('The level must be a whole number from 0 to 30.', { min: 0, max: 30 }),
  tile: z.string().regex(/^\d{1,6}_\d{1,6}\.jpeg$/, 'A tile is named <col>_<row>.jpeg.'),
});

const jpeg = { description: 'A JPEG image', content: { 'image/jpeg': { schema: z.custom<Buffer>((value) => Buffer.isBuffer(value)).meta({ type: 'string', format: 'binary' }) } } };

/** A sheet's failure is stored in English and read in the reader's language. */
function translated<T extends Sheet>(request: FastifyRequest, sheet: T): T {
  return sheet.failure === null ? sheet : { ...sheet, failure: translateMessage(sheet.failure, readerLanguage(request)) };
}

const uploaded = (request: FastifyRequest) => (isMultipartBody(request.body) ? request.body : undefined);

/** A project's drawings (issue 43): sheets, their versions, their tiles, and the pins on them. */
export const sheetsRoutes: FastifyPluginAsyncZod<{ sheetsDir: string }> = async (app, options) => {
  const { sheetsDir } = options;
  await app.register(multipartPlugin);
  const keeper = requireRole(...PERMISSIONS['sheets:keep']);
  /**
   * Who may not see the drawings learns nothing of what is wrong with a query or a tile's name: asked
   * first when validation would refuse (404, 403). A good request, a tile most of all, is asked once, by its service.
   */
  const readerFirst = (which: 'project' | 'sheet', valid: (request: FastifyRequest) => boolean) => async (request: FastifyRequest) => {
    if (!valid(request)) await assertMayRead(request.ctx, which, (request.params as { id?: unknown }).id);
  };

  app.post('/api/projects/:id/sheets/', {
    // Who may upload is asked before the body is read: a refused upload is never written to disk.
    ...guardedBy(keeper, async (request) => assertMayKeep(request.ctx, 'project', (request.params as { id?: unknown }).id)),
    config: { upload: DRAWING_UPLOAD },
    schema: {
      tags,
      security,
      summary: 'Upload a drawing (multipart/form-data, field "file": a PDF of at most 200 MB, each page a sheet, or a JPEG, PNG or WebP image of at most 50 MB; optional field "name"); the sheets render in the background',
      params: idParams,
      consumes: ['multipart/form-data'],
      response: { 202: z.array(sheetSchema), 413: errorResponse, ...refusals },
    },
    handler: async (request, reply) => {
      const body = uploaded(request);
      const sheets = await uploadSheets(request.ctx, sheetsDir, request.params.id, body?.files.find((file) => file.field === 'file'), body?.fields.name);
      return reply.code(202).send(sheets.map((sheet) => translated(request, sheet)));
    },
  });

  app.get('/api/projects/:id/sheets/', {
    ...guardedBy(readerFirst('project', (request) => sheetListQuery.safeParse(request.query).success)),
    schema: {
      tags,
      security,
      summary: "A page of the latest version of each of the project's sheets, in upload order (admins, its manager, who has work in it)",
      params: idParams,
      querystring: sheetListQuery,
      response: { 200: z.array(sheetSchema), ...refusals },
    },
    handler: async (request, reply) => {
      const page = await listSheets(request.ctx, request.params.id, request.query);
      return sendPage(reply, { total: page.total, items: page.items.map((sheet) => translated(request, sheet)) });
    },
  });

  app.get('/api/sheets/:id/', {
    schema: { tags, security, summary: 'A sheet with where its preview and tiles are (a Deep Zoom pyramid) and its versions', params: idParams, response: { 200: sheetDetailSchema, ...refusals } },
    handler: async (request) => translated(request, await getSheet(request.ctx, request.params.id)),
  });

  const keepsSheet = async (request: FastifyRequest) => assertMayKeep(request.ctx, 'sheet', (request.params as { id?: unknown }).id);

  app.patch('/api/sheets/:id/', {
    ...guardedBy(keeper, keepsSheet),
    schema: { tags, security, summary: 'Rename a sheet (every version of it)', params: idParams, body: updateSheetInput, response: { 200: sheetSchema, ...refusals } },
    handler: async (request) => translated(request, await renameSheet(request.ctx, request.params.id, request.body)),
  });

  app.delete('/api/sheets/:id/', {
    ...guardedBy(keeper, keepsSheet),
    schema: { tags, security, summary: 'Delete a sheet with all its versions; its pins are removed', params: idParams, response: { 204: z.null().describe('Deleted'), ...refusals } },
    handler: async (request, reply) => {
      await deleteSheet(request.ctx, request.params.id);
      return reply.code(204).send(null);
    },
  });

  app.post('/api/sheets/:id/versions/', {
    ...guardedBy(keeper, keepsSheet),
    config: { upload: DRAWING_UPLOAD },
    schema: {
      tags,
      security,
      summary: 'Upload a new version of a sheet (multipart/form-data, field "file"); its pins move to it at the same relative place, the old versions stay viewable',
      params: idParams,
      consumes: ['multipart/form-data'],
      response: { 202: sheetSchema, 413: errorResponse, ...refusals },
    },
    handler: async (request, reply) => reply.code(202).send(translated(request, await uploadVersion(request.ctx, sheetsDir, request.params.id, uploaded(request)?.files.find((file) => file.field === 'file')))),
  });

  app.get('/api/sheets/:id/pins/', {
    schema: { tags, security, summary: "The subtasks pinned on a sheet, with their status, assignee and due date", params: idParams, response: { 200: z.array(sheetPinSchema), ...refusals } },
    handler: async (request) => listSheetPins(request.ctx, request.params.id),
  });

  // A sheet's images never change under its id (a new version is a new sheet): a phone keeps them a year, for this user only.
  const immutable = 'private, max-age=31536000, immutable';

  app.get('/api/sheets/:id/preview/', {
    schema: { tags, security, summary: "A ready sheet's preview (JPEG, at most 1,024 px)", params: idParams, response: { 200: jpeg, 401: errorResponse, 403: errorResponse, 404: errorResponse } },
    handler: async (request, reply) => reply.header('Content-Type', 'image/jpeg').header('Cache-Control', immutable).send(await sheetFile(request.ctx, sheetsDir, request.params.id, 'preview')),
  });

  app.get('/api/sheets/:id/tiles/:level/:tile', {
    ...guardedBy(readerFirst('sheet', (request) => tileParams.safeParse(request.params).success)),
    schema: { tags, security, summary: "A tile of a ready sheet's Deep Zoom pyramid (JPEG, 256 px): tile_url_template filled in", params: tileParams, response: { 200: jpeg, ...refusals } },
    handler: async (request, reply) => {
      const { id, level, tile } = request.params;
      return reply.header('Content-Type', 'image/jpeg').header('Cache-Control', immutable).send(await sheetFile(request.ctx, sheetsDir, id, { level, tile }));
    },
  });
};
