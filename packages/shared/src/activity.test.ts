import { describe, expect, it } from 'vitest';
import { ATTACHMENT_MAX_BYTES, NOT_A_PHOTO, PHOTO_TOO_LARGE, photoPickRefusal } from './activity';

describe('a file picked as a photo', () => {
  it('goes when the device names it a kept kind, however it spells it, or names none and the file is called like one', () => {
    for (const type of ['image/jpeg', 'image/JPEG', 'image/jpg', 'image/png', 'image/webp', 'image/heic', 'image/heif']) expect(photoPickRefusal({ name: 'x', type, size: 1 }), type).toBeUndefined();
    // An iPhone's HEIC often comes with no type at all.
    expect(photoPickRefusal({ name: 'IMG_0042.HEIC', type: '', size: 1 })).toBeUndefined();
    expect(photoPickRefusal({ name: 'scan.jpeg', type: 'application/octet-stream', size: 1 })).toBeUndefined();
    // Some Android galleries name neither: the server judges the bytes.
    expect(photoPickRefusal({ name: '1000012345', type: '', size: 1 })).toBeUndefined();
  });

  it('is refused when it is another kind, or too large', () => {
    expect(photoPickRefusal({ name: 'notes.txt', type: 'text/plain', size: 9 })).toBe(NOT_A_PHOTO);
    expect(photoPickRefusal({ name: 'plan.gif', type: 'image/gif', size: 9 })).toBe(NOT_A_PHOTO);
    expect(photoPickRefusal({ name: 'report.pdf', type: '', size: 9 })).toBe(NOT_A_PHOTO);
    expect(photoPickRefusal({ name: 'big.jpg', type: 'image/jpeg', size: ATTACHMENT_MAX_BYTES + 1 })).toBe(PHOTO_TOO_LARGE);
    expect(photoPickRefusal({ name: 'edge.jpg', type: 'image/jpeg', size: ATTACHMENT_MAX_BYTES })).toBeUndefined();
  });
});
