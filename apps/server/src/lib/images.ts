/**
 * Photos as proof, and the one queue all image work of this server runs through (decision record
 * 055). Whatever a phone sends is checked by its bytes and by what its header claims before
 * anything is decoded; then, in the queue, decoded once, turned upright (EXIF orientation), scaled
 * to what a phone photo needs and written anew without any of its metadata (GPS, camera, time),
 * with a thumbnail. What cannot be read as one of the accepted kinds is refused with a clear message.
 *
 * For another feature's images: `processPhoto(path)` for a photo as subtasks keep them;
 * `imageQueue.run(work)` and `loadSharp()` for other image work, so that it shares the bound.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { readFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import type sharp from 'sharp';
import { ATTACHMENT_MAX_PIXELS, PHOTO_MAX_PX, THUMBNAIL_MAX_PX } from '@siteboard/shared';
import { AppError, ValidationError } from '../platform';
import { createWorkQueue } from './work-queue';

export const NOT_AN_IMAGE = 'The file is not a JPEG, PNG, WebP or HEIC image.';
export const UNREADABLE_IMAGE = 'The image could not be read; it may be damaged or cut short.';
export const IMAGE_TOO_LARGE = `The image is too large: at most ${ATTACHMENT_MAX_PIXELS / 1_000_000} million pixels.`;
export const IMAGES_BUSY = 'The server is busy with other photos: try again in a few seconds.';

/**
 * As many images at once as there are cores, less one: the core left over keeps answering
 * everyone else's requests. Each image gets one libvips thread (below), so the bound holds.
 * Beyond eight waiting per place a photo is refused with 503 and Retry-After: it would wait too long.
 */
const CONCURRENCY = Math.max(1, availableParallelism() - 1);
export const imageQueue = createWorkQueue({ concurrency: CONCURRENCY, maxWaiting: 8 * CONCURRENCY, busy: IMAGES_BUSY });

export interface ProcessedImage {
  contentType: 'image/jpeg' | 'image/png' | 'image/webp';
  image: Buffer;
  thumbnail: Buffer;
  width: number;
  height: number;
}

type Kind = 'jpeg' | 'png' | 'webp' | 'heic';
const KINDS: Record<string, Kind> = { jpg: 'jpeg', png: 'png', webp: 'webp', heic: 'heic' };

/**
 * sharp (libvips and its threads, ~10 MB resident) loads with the first photo instead of at
 * start: most of a server's life has no photo to process (decision record 016). No operation
 * cache (an image is never processed twice) and one thread per image: the queue is the bound.
 */
let sharpLoaded: Promise<typeof sharp> | undefined;
export const loadSharp = () =>
  (sharpLoaded ??= import('sharp').then(({ default: vips }) => {
    vips.cache(false);
    vips.concurrency(1);
    return vips;
  }));

/** The kind the bytes themselves announce (file-type reads the first few kilobytes), whatever the file was called. */
export async function imageKind(path: string): Promise<Kind | null> {
  const { fileTypeFromFile } = await import('file-type');
  const type = await fileTypeFromFile(path);
  return (type && KINDS[type.ext]) ?? null;
}

const OUTPUT: Record<Kind, ProcessedImage['contentType']> = { jpeg: 'image/jpeg', heic: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/** Refusals of the image itself, each a 4xx with its reason; sharp's own errors never reach the caller. */
function refuse(message: string, status = 400): never {
  throw status === 400 ? new ValidationError(message, { file: [message] }) : new AppError(status, message, { file: [message] });
}

const require = createRequire(import.meta.url);

/**
 * sharp's libvips reads HEIF headers but has no HEVC decoder; libheif (WebAssembly) decodes,
 * applying the image's own rotation and mirroring. It decodes on the thread that calls it, for a
 * second or more, and keeps the memory it grew: each HEIC photo is decoded on a thread of its own
 * that ends with it.
 */
const HEIC_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
require(workerData.decoder)({ buffer: workerData.bytes }).then(
  ({ width, height, data }) => parentPort.postMessage({ width, height, data }, [data.buffer]),
  (error) => parentPort.postMessage({ error: String((error && error.message) || error) }),
);`;

function decodeHeic(bytes: Buffer): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  return new Promise((resolve, reject) => {
    const thread = new Worker(HEIC_THREAD, { eval: true, workerData: { decoder: require.resolve('heic-decode'), bytes } });
    thread.once('message', (answer: { width: number; height: number; data: Uint8ClampedArray } | { error: string }) => {
      void thread.terminate();
      if ('error' in answer) reject(new Error(answer.error));
      else resolve(answer);
    });
    thread.once('error', reject);
  });
}

async function decoded(vips: typeof sharp, path: string, kind: Kind): Promise<sharp.Sharp> {
  const options = { limitInputPixels: ATTACHMENT_MAX_PIXELS, failOn: 'truncated' as const };
  if (kind !== 'heic') return vips(path, options).rotate();
  const raw = await decodeHeic(await readFile(path));
  return vips(Buffer.from(raw.data.buffer, raw.data.byteOffset, raw.data.byteLength), { raw: { width: raw.width, height: raw.height, channels: 4 }, limitInputPixels: ATTACHMENT_MAX_PIXELS });
}

/** Fast encoder settings: a photo is stored once at a size a phone shows, not archived. */
const encode = (image: sharp.Sharp, contentType: ProcessedImage['contentType']) =>
  contentType === 'image/png' ? image.png({ compressionLevel: 6 }) : contentType === 'image/webp' ? image.webp({ quality: 82, effort: 2 }) : image.jpeg({ quality: 82 });

/**
 * A photo file as it is kept: checked (kind by its bytes, pixels by its header) before it waits
 * for its turn, then decoded once in the image queue, upright, at most PHOTO_MAX_PX on its longer
 * side, with a thumbnail of at most THUMBNAIL_MAX_PX. A full queue is a 503 with Retry-After; a
 * `signal` that aborts while the photo waits (its sender went away) drops it.
 */
export async function processPhoto(path: string, signal?: AbortSignal): Promise<ProcessedImage> {
  const kind = await imageKind(path);
  if (!kind) refuse(NOT_AN_IMAGE);
  const vips = await loadSharp();
  let metadata: sharp.Metadata;
  try {
    // The header alone, whatever it claims; the claim is weighed below.
    metadata = await vips(path, { limitInputPixels: false }).metadata();
  } catch {
    refuse(UNREADABLE_IMAGE);
  }
  if (!metadata.width || !metadata.height) refuse(UNREADABLE_IMAGE);
  if (metadata.width * metadata.height > ATTACHMENT_MAX_PIXELS) refuse(IMAGE_TOO_LARGE, 413);
  return imageQueue.run(async () => {
    try {
      const contentType = OUTPUT[kind];
      const upright = (await decoded(vips, path, kind)).resize(PHOTO_MAX_PX, PHOTO_MAX_PX, { fit: 'inside', withoutEnlargement: true });
      // The upload is decoded once; the thumbnail is made from the stored image, a few times
      // smaller. Against keeping the scaled pixels for both, on ten 12-MP photos in one process:
      // 665 ms instead of 877 ms each, and 264 MB resident after instead of 367 MB.
      const { data: image, info } = await encode(upright, contentType).toBuffer({ resolveWithObject: true });
      const thumbnail = await vips(image).resize(THUMBNAIL_MAX_PX, THUMBNAIL_MAX_PX, { fit: 'inside', withoutEnlargement: true }).flatten({ background: '#ffffff' }).jpeg({ quality: 75 }).toBuffer();
      return { contentType, image, thumbnail, width: info.width, height: info.height };
    } catch (error) {
      if (error instanceof AppError) throw error;
      refuse(UNREADABLE_IMAGE);
    }
  }, signal);
}
