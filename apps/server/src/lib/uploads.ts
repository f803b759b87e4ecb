/**
 * A photo upload as the photo routes read it (subtasks' and daily logs'): one file in the multipart
 * field "file", at most ATTACHMENT_MAX_BYTES, streamed to a temporary file by the platform's
 * multipart plugin (the route declares `config: { upload: PHOTO_UPLOAD }`); each way it goes wrong
 * is a clear 4xx with its own message.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ATTACHMENT_MAX_BYTES, ATTACHMENT_MAX_PIXELS, PHOTO_TOO_LARGE } from '@siteboard/shared';
import { ValidationError, isMultipartBody, type UploadLimits, type UploadedFile } from '../platform';

export { PHOTO_TOO_LARGE };
export const ONE_PHOTO_PER_REQUEST = 'Send one photo per request.';
export const PHOTO_FIELD_MISSING = 'Attach the photo as multipart/form-data in a field named "file".';

/** What a photo route accepts: one file of at most 10 MB and a few small fields. */
export const PHOTO_UPLOAD: UploadLimits = {
  fileBytes: ATTACHMENT_MAX_BYTES,
  files: 1,
  fields: 10,
  tooLarge: PHOTO_TOO_LARGE,
  tooMany: ONE_PHOTO_PER_REQUEST,
  file: `One image: JPEG, PNG, WebP or HEIC, at most ${ATTACHMENT_MAX_BYTES / 1024 / 1024} MB and ${ATTACHMENT_MAX_PIXELS / 1_000_000} million pixels`,
};

/** The one photo of an upload, in the field named "file" (the body was streamed to disk and checked against PHOTO_UPLOAD). */
export function uploadedPhoto(request: FastifyRequest): UploadedFile {
  const photo = isMultipartBody(request.body) ? request.body.files.find((file) => file.field === 'file') : undefined;
  if (!photo || photo.bytes === 0) throw new ValidationError(PHOTO_FIELD_MISSING, { file: [PHOTO_FIELD_MISSING] });
  return photo;
}

/** What a photo is stored as (a HEIC photo becomes a JPEG); a thumbnail is always a JPEG. */
const STORED_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
const bytes = z.custom<Buffer>((value) => Buffer.isBuffer(value)).meta({ type: 'string', format: 'binary' });

/** A photo's or a thumbnail's 200 answer as the document describes it: its bytes, in the types it may have. */
export function photoAnswer(which: 'image' | 'thumbnail') {
  return { description: 'The image', content: Object.fromEntries((which === 'image' ? STORED_TYPES : ['image/jpeg']).map((type) => [type, { schema: bytes }])) };
}
