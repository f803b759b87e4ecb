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
import { fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import type sharp from 'sharp';
import { ATTACHMENT_MAX_PIXELS, NOT_A_PHOTO } from '@siteboard/shared';
import { AppError, ValidationError, entryFile } from '../platform';
import type { EncodedPhoto, PhotoKind } from './photo-encode';
import type { PhotoAnswer, PhotoRequest, WrittenPhoto } from './photo-process';
import { createWorkQueue } from './work-queue';

/** The same words the photo picker says before a file is sent (packages/shared). */
export const NOT_AN_IMAGE = NOT_A_PHOTO;
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

export type ProcessedImage = EncodedPhoto;
type Kind = PhotoKind;
const KINDS: Record<string, Kind> = { jpg: 'jpeg', png: 'png', webp: 'webp', heic: 'heic' };

/**
 * sharp (libvips and its threads, ~10 MB resident) loads with the first photo instead of at
 * start: most of a server's life has no photo to process (decision record 016). The server reads
 * only headers with it; photos are decoded in their own process (below).
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

/** Refusals of the image itself, each a 4xx with its reason; sharp's own errors never reach the caller. */
function refuse(message: string, status = 400): never {
  throw status === 400 ? new ValidationError(message, { file: [message] }) : new AppError(status, message, { file: [message] });
}

/** A photos' process with nothing to do ends after this long; the next photo starts another (~0.2 s). */
const PROCESS_IDLE_MS = 10_000;

interface PhotoProcess {
  encode(path: string, kind: Kind): Promise<WrittenPhoto>;
  readonly open: boolean;
}

/**
 * The process photos are decoded in (photo-process.ts), started with a photo and ended when none
 * has come for PROCESS_IDLE_MS: libvips' and libheif's memory is never the server's (glibc kept
 * ~230 MB of it in the server a minute after a burst of uploads). The image queue bounds what it is given.
 */
function startPhotoProcess(): PhotoProcess {
  const entry = entryFile(import.meta.url, { source: 'photo-process.ts', compiled: 'photo-process', env: 'SITEBOARD_PHOTO_PROCESS_FILE' });
  const child: ChildProcess = fork(entry.file, [], { execArgv: entry.execArgv, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const inFlight = new Map<number, { resolve: (photo: WrittenPhoto) => void; reject: (error: unknown) => void }>();
  let lastId = 0;
  let idle: NodeJS.Timeout | undefined;
  let open = true;

  // Resting, it holds no one up: the server may end without waiting for it.
  const rest = () => {
    child.unref();
    child.channel?.unref();
    idle = setTimeout(() => {
      open = false;
      child.disconnect();
    }, PROCESS_IDLE_MS).unref();
  };
  child.on('message', (answer: PhotoAnswer) => {
    const waiting = inFlight.get(answer.id);
    if (!waiting) return;
    inFlight.delete(answer.id);
    if (answer.ok) waiting.resolve(answer.photo);
    // A system error (no room for the encoded copy) keeps its code: it is not the photo's fault.
    else waiting.reject(answer.code ? Object.assign(new Error(answer.message ?? answer.code), { code: answer.code }) : new Error('The photo could not be decoded.'));
    if (inFlight.size === 0) rest();
  });
  child.once('exit', (code, signal) => {
    open = false;
    clearTimeout(idle);
    // What it was decoding when it ended (a decoder that crashed on the file) cannot be read.
    for (const waiting of inFlight.values()) waiting.reject(new Error(`The photos' process ended with ${signal ?? `code ${code}`}.`));
    inFlight.clear();
  });
  // For as long as it lives (CONTRIBUTING, server 11): a send on a closed channel emits one each time.
  child.on('error', () => child.kill('SIGKILL'));

  return {
    get open() {
      return open;
    },
    encode(path, kind) {
      clearTimeout(idle);
      child.ref();
      child.channel?.ref();
      const id = ++lastId;
      return new Promise((resolve, reject) => {
        inFlight.set(id, { resolve, reject });
        child.send({ id, path, kind } satisfies PhotoRequest);
      });
    },
  };
}

let photoProcess: PhotoProcess | undefined;
/** The photo encoded in the photos' process, its files read back once each (off the event loop, each into one buffer of its size). */
const encodeInProcess = async (path: string, kind: Kind): Promise<ProcessedImage> => {
  if (!photoProcess?.open) photoProcess = startPhotoProcess();
  const { imagePath, thumbnailPath, ...photo } = await photoProcess.encode(path, kind);
  const [image, thumbnail] = await Promise.all([readFile(imagePath), readFile(thumbnailPath)]);
  return { ...photo, image, thumbnail };
};

/**
 * A photo file as it is kept: checked (kind by its bytes, pixels by its header) before it waits
 * for its turn, then decoded once in the image queue, upright, at most PHOTO_MAX_PX on its longer
 * side, with a thumbnail of at most THUMBNAIL_MAX_PX. A full queue is a 503 with Retry-After; a
 * `signal` that aborts while the photo waits (its sender went away) drops it. The encoded files
 * are written beside `path` (`<path>.image`, `<path>.thumbnail`) and left there: give it an upload
 * in a folder that is removed after the request, as the multipart uploads are.
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
  // The system failing (a full disk: 507, come back later; another I/O error) is the server's trouble,
  // not an unreadable photo (400, refused for good): only a failed decode is the photo's.
  const unreadable = (error: unknown): never => {
    if (typeof (error as { code?: unknown } | null)?.code === 'string') throw error;
    refuse(UNREADABLE_IMAGE);
  };
  return imageQueue.run(() => encodeInProcess(path, kind).catch(unreadable), signal);
}
