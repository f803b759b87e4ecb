/**
 * Photos as proof: whatever a phone sends is checked by its bytes, decoded once, turned upright
 * (EXIF orientation) and written anew without any of its metadata (GPS, camera, time), with a
 * thumbnail. What cannot be read as one of the accepted kinds is refused with a clear message.
 */
import type sharp from 'sharp';
import { ATTACHMENT_MAX_PIXELS, THUMBNAIL_MAX_PX } from '@siteboard/shared';
import { AppError, ValidationError } from '../platform';

export const NOT_AN_IMAGE = 'The file is not a JPEG, PNG, WebP or HEIC image.';
export const UNREADABLE_IMAGE = 'The image could not be read; it may be damaged or cut short.';
export const IMAGE_TOO_LARGE = `The image is too large: at most ${ATTACHMENT_MAX_PIXELS / 1_000_000} million pixels.`;

export interface ProcessedImage {
  contentType: 'image/jpeg' | 'image/png' | 'image/webp';
  image: Buffer;
  thumbnail: Buffer;
  width: number;
  height: number;
}

type Kind = 'jpeg' | 'png' | 'webp' | 'heic';

/** heic-decode ships no types: its one function, as documented. */
type DecodeHeic = (input: { buffer: Uint8Array }) => Promise<{ width: number; height: number; data: Uint8ClampedArray }>;
const HEIC_DECODER: string = 'heic-decode';

/**
 * sharp (libvips and its threads, ~10 MB resident) loads with the first photo instead of at
 * start: most of a server's life has no photo to process (decision record 016).
 */
let sharpLoaded: Promise<typeof sharp> | undefined;
const loadSharp = () => (sharpLoaded ??= import('sharp').then((module) => module.default));

/** The kind the bytes themselves announce (magic numbers), whatever the file was called. */
export function imageKind(bytes: Buffer): Kind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  // ISO base media: a `ftyp` box whose brands name an HEIF image coded with HEVC.
  if (bytes.length >= 16 && bytes.toString('latin1', 4, 8) === 'ftyp') {
    const boxSize = Math.min(bytes.readUInt32BE(0), bytes.length, 64);
    const brands = bytes.toString('latin1', 8, boxSize);
    if (/heic|heix|hevc|hevx|heim|heis/.test(brands)) return 'heic';
  }
  return null;
}

const OUTPUT: Record<Kind, ProcessedImage['contentType']> = { jpeg: 'image/jpeg', heic: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/** Refusals of the image itself, each a 4xx with its reason; sharp's own errors never reach the caller. */
function refuse(message: string, status = 400): never {
  throw status === 400 ? new ValidationError(message, { file: [message] }) : new AppError(status, message, { file: [message] });
}

async function decoded(bytes: Buffer, kind: Kind): Promise<sharp.Sharp> {
  const vips = await loadSharp();
  const options = { limitInputPixels: ATTACHMENT_MAX_PIXELS, failOn: 'truncated' as const };
  if (kind !== 'heic') return vips(bytes, options).rotate();
  // sharp's libvips reads HEIF headers but has no HEVC decoder; libheif (WebAssembly) decodes,
  // applying the image's own rotation and mirroring.
  const { default: decodeHeic } = (await import(HEIC_DECODER)) as { default: DecodeHeic };
  const raw = await decodeHeic({ buffer: bytes });
  return vips(Buffer.from(raw.data.buffer, raw.data.byteOffset, raw.data.byteLength), { raw: { width: raw.width, height: raw.height, channels: 4 }, limitInputPixels: ATTACHMENT_MAX_PIXELS });
}

export async function processPhoto(bytes: Buffer): Promise<ProcessedImage> {
  const kind = imageKind(bytes);
  if (!kind) refuse(NOT_AN_IMAGE);
  // The header's claim is checked before anything is decoded.
  const read = await loadSharp();
  let metadata: sharp.Metadata;
  try {
    // The header alone, whatever it claims; the claim is weighed below.
    metadata = await read(bytes, { limitInputPixels: false }).metadata();
  } catch {
    refuse(UNREADABLE_IMAGE);
  }
  if (!metadata.width || !metadata.height) refuse(UNREADABLE_IMAGE);
  if (metadata.width * metadata.height > ATTACHMENT_MAX_PIXELS) refuse(IMAGE_TOO_LARGE, 413);
  try {
    const upright = await decoded(bytes, kind);
    const contentType = OUTPUT[kind];
    const encode = (image: sharp.Sharp) =>
      contentType === 'image/png' ? image.png({ compressionLevel: 9 }) : contentType === 'image/webp' ? image.webp({ quality: 85 }) : image.jpeg({ quality: 85, mozjpeg: true });
    const { data: image, info } = await encode(upright.clone()).toBuffer({ resolveWithObject: true });
    const thumbnail = await upright.clone().resize(THUMBNAIL_MAX_PX, THUMBNAIL_MAX_PX, { fit: 'inside', withoutEnlargement: true }).flatten({ background: '#ffffff' }).jpeg({ quality: 75 }).toBuffer();
    return { contentType, image, thumbnail, width: info.width, height: info.height };
  } catch (error) {
    if (error instanceof AppError) throw error;
    refuse(UNREADABLE_IMAGE);
  }
}
