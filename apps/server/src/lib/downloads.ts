import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** A file download: its type and name, never kept by a cache (it is one person's view of the company's data). */
export const sendDownload = (reply: FastifyReply, type: string, fileName: string, body: Buffer | Readable) =>
  reply.type(type).header('content-disposition', `attachment; filename="${fileName}"`).header('cache-control', 'private, no-store').send(body);

/**
 * A download's file name: `siteboard-`, what it holds, and (`day`, for a list as it is now) the day
 * it was made on the reader's calendar, `siteboard-projects-2026-03-04.csv`; a file whose name
 * already says its days (a range of daily logs) is not dated again.
 */
export const datedFileName = (name: string, extension: string, day?: string) => `siteboard-${name}${day ? `-${day}` : ''}.${extension}`;
