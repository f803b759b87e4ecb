import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { Busboy, type BusboyFileStream, type BusboyHeaders, type BusboyInstance } from '@fastify/busboy';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, ValidationError } from '../errors';
import { drainRequestBody } from './body';

/** One file of a multipart body, as it was written to a temporary file (removed when the answer is sent). */
export interface UploadedFile {
  field: string;
  filename: string;
  /** What the sender said it is; the bytes decide what it really is. */
  mimeType: string;
  path: string;
  bytes: number;
}

/**
 * A multipart/form-data body, read as it arrived: its files on disk, its other fields as text, and
 * a SHA-256 of every part (name, filename, type and content, in order) taken as the bytes streamed
 * by: two bodies with the same parts have the same digest, whatever their boundaries.
 */
export interface MultipartBody {
  files: UploadedFile[];
  fields: Record<string, string>;
  digest: string;
}

/** What a route takes in one multipart body (`config: { upload }`); a route without it takes none (415). */
export interface UploadLimits {
  fileBytes: number;
  files: number;
  fields: number;
  /** The refusal of a file over `fileBytes` (413). */
  tooLarge: string;
  /** The refusal of more files or fields than allowed (413). */
  tooMany: string;
  /** What the field "file" holds, as the API document tells callers. */
  file: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    upload?: UploadLimits;
  }
  interface FastifyRequest {
    /** Where this request's uploaded files are kept until its answer is sent. */
    uploadDir: string | null;
  }
}

const FIELD_MAX_BYTES = 64 * 1024;

export const isMultipartBody = (body: unknown): body is MultipartBody => body instanceof SpooledBody;

class SpooledBody implements MultipartBody {
  constructor(
    readonly files: UploadedFile[],
    readonly fields: Record<string, string>,
    readonly digest: string,
  ) {}
}

/**
 * multipart/form-data for the routes that take uploads: the body is streamed to temporary files
 * (never held in memory), hashed on the way, and every file is removed once the answer has gone
 * or the connection closed, whatever happened in between.
 */
export const multipartPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('uploadDir', null);
    app.addHook('onRequest', async (request, reply) => {
      // A failure here (the disk, too many open files) must not become an unhandled rejection, which ends the process.
      reply.raw.once('close', () => void removeUploads(request).catch((error: Error) => request.log.warn({ err: error }, 'could not remove an upload')));
    });
    app.addContentTypeParser('multipart/form-data', (request: FastifyRequest, payload: Readable) => readMultipart(request, payload));
  },
  { name: 'multipart' },
);

/** Aborts when the connection closes before the answer was sent: work for that request is wasted then. */
export function abortsWhenConnectionCloses(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('The connection closed before the answer.'));
  });
  return controller.signal;
}

async function removeUploads(request: FastifyRequest) {
  const dir = request.uploadDir;
  if (dir) await fs.promises.rm(dir, { recursive: true, force: true });
}

const tooBig = (message: string) => new AppError(413, message, { file: [message] });

export const MULTIPART_INVALID = 'The request body is not valid multipart/form-data.';

async function readMultipart(request: FastifyRequest, payload: Readable): Promise<MultipartBody> {
  const limits = request.routeOptions.config.upload;
  if (!limits) throw new AppError(415, 'Unsupported Media Type');
  let busboy: BusboyInstance;
  try {
    busboy = Busboy({
      headers: request.headers as BusboyHeaders,
      limits: { fileSize: limits.fileBytes, files: limits.files, fields: limits.fields, parts: limits.files + limits.fields, fieldSize: FIELD_MAX_BYTES },
    });
  } catch {
    throw new ValidationError(MULTIPART_INVALID);
  }
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'siteboard-upload-'));
  request.uploadDir = dir;
  // Each part is hashed on its own and the digests joined in part order: a file's last bytes may
  // reach its hash after the next part has been parsed.
  const parts: Hash[] = [];
  const files: UploadedFile[] = [];
  const fields: Record<string, string> = {};
  // Stops every file being written when the body is refused midway.
  const stopWriting = new AbortController();
  const writes: Promise<void>[] = [];
  let refusal: AppError | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      const refuse = (error: AppError) => {
        if (refusal) return;
        refusal = error;
        payload.unpipe(busboy);
        stopWriting.abort();
        resolve();
      };
      busboy.on('field', (name, value) => {
        parts.push(createHash('sha256').update(part('field', name, '', '')).update(value));
        fields[name] = value;
      });
      busboy.on('file', (field, stream, filename, _encoding, mimeType) => {
        const file: UploadedFile = { field, filename, mimeType, path: path.join(dir, String(files.length)), bytes: 0 };
        const hash = createHash('sha256').update(part('file', field, filename, mimeType));
        files.push(file);
        parts.push(hash);
        stream.once('limit', () => refuse(tooBig(limits.tooLarge)));
        const write = spool(stream, file, hash, stopWriting.signal);
        // Awaited below when the body is whole; when it is not, it fails after the catch below has
        // begun, and an unhandled rejection would end the process.
        write.catch(() => {});
        writes.push(write);
      });
      for (const event of ['filesLimit', 'fieldsLimit', 'partsLimit'] as const) busboy.on(event, () => refuse(tooBig(limits.tooMany)));
      busboy.once('finish', resolve);
      busboy.once('error', () => reject(new ValidationError(MULTIPART_INVALID)));
      // A sender that goes away mid-body (a phone losing its signal): nothing more will come, and
      // nothing failed here; no one is left to read the 400.
      finished(payload).catch(() => {
        request.log.info('the client went away before its upload was whole');
        reject(new ValidationError(MULTIPART_INVALID));
      });
      payload.pipe(busboy);
    });
    const written = await Promise.allSettled(writes);
    if (refusal) {
      // The sender may still be writing: read and drop the rest so that it reads the refusal.
      if (!payload.readableEnded) await drainRequestBody(request.raw);
      throw refusal;
    }
    const failed = written.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  } catch (error) {
    // A body cut off or malformed inside a file: its file stream neither ends nor fails by itself,
    // and would keep its file open (and its disk space taken) for as long as the process runs.
    stopWriting.abort();
    await Promise.allSettled(writes);
    await removeUploads(request);
    request.uploadDir = null;
    throw error;
  }
  const digest = createHash('sha256');
  for (const hash of parts) digest.update(hash.digest());
  return new SpooledBody(files, fields, digest.digest('hex'));
}

/** Each part opens with its kind, name, filename and type, each ended by a zero byte, so no two bodies hash alike by moving bytes between parts. */
const part = (kind: string, name: string, filename: string, mimeType: string) => `${kind}\0${name}\0${filename}\0${mimeType}\0`;

async function spool(stream: BusboyFileStream, file: UploadedFile, hash: Hash, signal: AbortSignal) {
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      file.bytes += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(stream, counted, fs.createWriteStream(file.path), { signal });
}
