/**
 * A photo upload as the photo routes read it (subtasks' and daily logs'): one file in the multipart
 * field "file", at most ATTACHMENT_MAX_BYTES, each way it goes wrong a clear 4xx with its own message.
 */
import type { FastifyRequest } from 'fastify';
import { ATTACHMENT_MAX_BYTES } from '@siteboard/shared';
import { AppError, ValidationError } from '../platform';

export const PHOTO_TOO_LARGE = `The photo is larger than ${ATTACHMENT_MAX_BYTES / 1024 / 1024} MB.`;
export const ONE_PHOTO_PER_REQUEST = 'Send one photo per request.';
export const PHOTO_FIELD_MISSING = 'Attach the photo as multipart/form-data in a field named "file".';

/** The one file of a multipart upload, read whole (at most 10 MB); each way an upload goes wrong has its own message. */
export async function readOneFile(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw new ValidationError(PHOTO_FIELD_MISSING, { file: [PHOTO_FIELD_MISSING] });
  let file: Buffer | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: ATTACHMENT_MAX_BYTES, files: 1, fields: 10, parts: 11 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw new ValidationError(PHOTO_FIELD_MISSING, { file: [PHOTO_FIELD_MISSING] });
        file = await part.toBuffer();
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, PHOTO_TOO_LARGE, { file: [PHOTO_TOO_LARGE] });
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw new AppError(413, ONE_PHOTO_PER_REQUEST, { file: [ONE_PHOTO_PER_REQUEST] });
    throw new ValidationError(PHOTO_FIELD_MISSING, { file: [PHOTO_FIELD_MISSING] });
  }
  if (!file || file.length === 0) throw new ValidationError(PHOTO_FIELD_MISSING, { file: [PHOTO_FIELD_MISSING] });
  return file;
}
