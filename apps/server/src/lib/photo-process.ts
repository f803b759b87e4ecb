/**
 * The photos' process (lib/images.ts starts it): photos by IPC, each answered with what is kept or
 * a refusal. Decoding a 12-MP photo is a hundred MB the server must not keep: here one libvips
 * thread per photo, no cache of decoded images, and everything it grew goes back to the system
 * when it ends. It runs at the server's own priority (decision record 073 says why not lower).
 */
import sharp from 'sharp';
import { encodePhoto, type PhotoKind } from './photo-encode';

sharp.concurrency(1);
sharp.cache(false);

export interface PhotoRequest {
  id: number;
  path: string;
  kind: PhotoKind;
}

process.on('message', (request: PhotoRequest) => {
  encodePhoto(sharp, request.path, request.kind).then(
    (photo) => process.send!({ id: request.id, ok: true, photo }),
    () => process.send!({ id: request.id, ok: false }),
  );
});
// The server went away or let it go.
process.once('disconnect', () => process.exit(0));
