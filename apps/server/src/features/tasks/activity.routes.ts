import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { activityEntrySchema, activityQuery, attachmentSchema, createCommentInput, errorResponse, idParams, photoListQuery, subtaskPhotoSchema } from '@siteboard/shared';
import { abortsWhenConnectionCloses, guardedBy, multipartPlugin } from '../../platform';
import { sendPage } from '../../lib/lists';
import { PHOTO_UPLOAD, photoAnswer, uploadedPhoto } from '../../lib/uploads';
import { addComment, addPhoto, assertMayAddToRecord, getPhoto, getSubtaskActivity, listPhotos } from './activity.service';

const tags = ['tasks'];
const security = [{ bearer: [] }];
const refusals = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };


/** A subtask's record of work: its history, comments and photos. */
export const activityRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipartPlugin);

  app.get('/api/subtasks/:id/activity/', {
    schema: {
      tags,
      security,
      summary: "A subtask's history, oldest first: creation, edits, status changes with their comments, comments and photos; the latest page of it (100 entries unless `limit` says fewer), `before` an entry for the page before",
      params: idParams,
      querystring: activityQuery,
      response: { 200: z.array(activityEntrySchema), ...refusals },
    },
    handler: async (request, reply) => sendPage(reply, await getSubtaskActivity(request.ctx, request.params.id, request.query)),
  });

  // Who may add to a subtask's record is asked before its body is read (an upload is refused
  // before a byte of it is written to disk).
  const mayAdd = async (request: FastifyRequest) => assertMayAddToRecord(request.ctx, (request.params as { id?: unknown }).id);

  app.post('/api/subtasks/:id/comments/', {
    ...guardedBy(mayAdd),
    schema: {
      tags,
      security,
      summary: "Comment on a subtask (its assignee, its assigner, the project's manager, admins); the others are notified",
      params: idParams,
      body: createCommentInput,
      response: { 201: activityEntrySchema, ...refusals },
    },
    handler: async (request, reply) => reply.code(201).send(await addComment(request.ctx, request.params.id, request.body.text)),
  });

  app.post('/api/subtasks/:id/attachments/', {
    ...guardedBy(mayAdd),
    config: { upload: PHOTO_UPLOAD },
    schema: {
      tags,
      security,
      summary: 'Add a photo (multipart/form-data, field "file": JPEG, PNG, WebP or HEIC, at most 10 MB); it is re-encoded without its metadata',
      params: idParams,
      consumes: ['multipart/form-data'],
      response: { 201: attachmentSchema, 413: errorResponse, 503: errorResponse.describe('Busy with other photos: try again after Retry-After'), ...refusals },
    },
    handler: async (request, reply) => reply.code(201).send(await addPhoto(request.ctx, request.params.id, uploadedPhoto(request).path, abortsWhenConnectionCloses(reply))),
  });

  app.get('/api/attachments/', {
    schema: { tags, security, summary: 'The photos on a page of subtasks (facts and addresses, never the images)', querystring: photoListQuery, response: { 200: z.array(subtaskPhotoSchema), 400: errorResponse, 401: errorResponse } },
    handler: async (request) => listPhotos(request.ctx, request.query.subtask_ids),
  });

  for (const which of ['image', 'thumbnail'] as const) {
    app.get(which === 'image' ? '/api/attachments/:id/' : '/api/attachments/:id/thumbnail/', {
      schema: {
        tags,
        security,
        summary: which === 'image' ? 'A photo of a subtask (at most 2,560 px on its longer side)' : "A photo's thumbnail (JPEG, at most 400 px)",
        params: idParams,
        response: { 200: photoAnswer(which), 401: errorResponse, 404: errorResponse },
      },
      handler: async (request, reply) => {
        const photo = await getPhoto(request.ctx.db, request.ctx.user.companyId, request.params.id, which);
        // A photo never changes under its id: a phone keeps it for a year, for this user only.
        return reply.header('Content-Type', photo.contentType).header('Cache-Control', 'private, max-age=31536000, immutable').send(photo.bytes);
      },
    });
  }
};
