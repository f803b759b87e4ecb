/**
 * The photos' process (lib/images.ts starts it): photos by IPC, each answered with what is kept or
 * a refusal. Decoding a 12-MP photo is a hundred MB the server must not keep: here one libvips
 * thread per photo, no cache of decoded images, and everything it grew goes back to the system
 * when it ends. It runs at the server's own priority (decision record 073 says why not lower).
 *
 * The stored image and its thumbnail are written beside the upload (in the request's temporary
 * folder, removed with it) and only their paths go back: megabytes sent through the IPC channel
 * were copied three times on the server's event loop and made it collect garbage (decision record 093).
 */
import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { encodePhoto, type EncodedPhoto, type PhotoKind } from './photo-encode';

sharp.concurrency(1);
sharp.cache(false);

export interface PhotoRequest {
  id: number;
  path: string;
  kind: PhotoKind;
}

/** What is kept of a photo, its bytes in files: `<upload>.image` and `<upload>.thumbnail`. */
export type WrittenPhoto = Omit<EncodedPhoto, 'image' | 'thumbnail'> & { imagePath: string; thumbnailPath: string };

async function encodeToFiles(request: PhotoRequest): Promise<WrittenPhoto> {
  const { image, thumbnail, ...photo } = await encodePhoto(sharp, request.path, request.kind);
  const written = { ...photo, imagePath: `${request.path}.image`, thumbnailPath: `${request.path}.thumbnail` };
  await Promise.all([writeFile(written.imagePath, image), writeFile(written.thumbnailPath, thumbnail)]);
  return written;
}

/** What the server is told of a photo: what is kept, or that it failed, with the system's error code when there was one (ENOSPC: no room for the encoded copy, not a bad photo). */
export type PhotoAnswer = { id: number; ok: true; photo: WrittenPhoto } | { id: number; ok: false; code?: string; message?: string };

/** The answer to the server, while it is there to take it (a send after it left is an uncaught error). */
const answer = (message: PhotoAnswer) => void (process.connected && process.send!(message));

process.on('message', (request: PhotoRequest) => {
  encodeToFiles(request).then(
    (photo) => answer({ id: request.id, ok: true, photo }),
    (error: NodeJS.ErrnoException) => answer({ id: request.id, ok: false, code: typeof error?.code === 'string' ? error.code : undefined, message: error?.message }),
  );
});
// The server went away or let it go.
process.once('disconnect', () => process.exit(0));
