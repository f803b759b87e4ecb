/**
 * Turning an uploaded drawing into what the viewer loads (issue 43): a PDF page rendered by PDF.js
 * on a @napi-rs/canvas (both Apache-2.0/MIT), or an image as it is, cut by sharp into a Deep Zoom
 * tile pyramid plus a preview of at most 1,024 px. Runs in a process of its own
 * (sheets.render-process.ts): rendering a page is seconds of CPU the server must not spend.
 * Memory stays bounded whatever the page (decision record 092): a page is drawn band after band
 * into a raster file sharp reads row by row, and a scanned page's JPEG goes to sharp as it is.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { DrawingRefusal, TILE_SIZE, type Inspection, type RenderAnswer, type RenderRequest, type ScannedPage } from './sheets.render-protocol';
import { SHEET_IMAGE_DAMAGED, SHEET_IMAGE_TOO_LARGE, SHEET_MAX_PAGES, SHEET_MAX_SIDE, SHEET_PAGE_TOO_LARGE, SHEET_PDF_DAMAGED, SHEET_PDF_ENCRYPTED, SHEET_PDF_NO_PAGES, SHEET_TOO_MANY_PAGES, fill } from '@siteboard/shared';

/** Pixels one rendered sheet may hold (48 M: ~250 dpi for A1, ~210 dpi for A0): its time and disk, no longer its memory. */
export const PIXEL_BUDGET = 48_000_000;
/**
 * The memory one band of a PDF page's raster may take while PDF.js draws it (RGBA, 4 bytes a
 * pixel): the page is drawn band after band into a file, so this, not the page's size, bounds the
 * raster's memory (SHEET_RENDER_MEMORY_MB; 64 MiB unless set).
 */
export const BAND_BYTES = 64 * 2 ** 20;
/** The most pixels an uploaded image may claim: more is a lie or nothing a phone can show. */
export const IMAGE_MAX_PIXELS = 400_000_000;
export const PREVIEW_SIDE = 1024;
/** A page larger than 5 m on a side (PDF's own limit is 200 in): no drawing is. */
const PAGE_MAX_POINTS = (5_000 / 25.4) * 72;

const pdfjsRoot = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/**
 * The PDF, read by PDF.js from the file a mebibyte at a time as it needs them (its catalog, the
 * page tree, one page's objects), not whole into memory first: a page of a 200 MB plan set no
 * longer holds the other 199 MB (a six-page 20 MB scan set, counting its pages: peak 117 → 95
 * MiB). A file under 2 MiB is read whole at once, as before (PDF.js's rule for ranges).
 */
const PDF_RANGE_BYTES = 2 ** 20;

async function openPdf(source: string) {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  try {
    return await getDocument({ url: pathToFileURL(source), rangeChunkSize: PDF_RANGE_BYTES, disableAutoFetch: true, disableStream: true, isEvalSupported: false, standardFontDataUrl: `${path.join(pdfjsRoot, 'standard_fonts')}/`, cMapUrl: `${path.join(pdfjsRoot, 'cmaps')}/`, verbosity: 0 }).promise;
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'PasswordException') throw new DrawingRefusal(SHEET_PDF_ENCRYPTED);
    throw new DrawingRefusal(SHEET_PDF_DAMAGED);
  }
}

/** What an upload holds: its page count (a PDF's; an image is one page) and its scanned pages, or a refusal. */
async function inspect(source: string, type: 'pdf' | 'image'): Promise<Inspection> {
  if (type === 'image') {
    // The header alone, with no pixel limit of sharp's own: an image over ours is refused as too large, not as damaged.
    const meta = await sharp(source, { limitInputPixels: false }).metadata().catch(() => {
      throw new DrawingRefusal(SHEET_IMAGE_DAMAGED);
    });
    if (!meta.width || !meta.height) throw new DrawingRefusal(SHEET_IMAGE_DAMAGED);
    if (meta.width * meta.height > IMAGE_MAX_PIXELS) throw new DrawingRefusal(fill(SHEET_IMAGE_TOO_LARGE, { max: IMAGE_MAX_PIXELS / 1_000_000 }));
    return { pages: 1, scans: [null] };
  }
  const pdf = await openPdf(source);
  let pages: number;
  try {
    pages = pdf.numPages;
    if (pages < 1) throw new DrawingRefusal(SHEET_PDF_NO_PAGES);
    // A page tree that counts pages it does not hold: its first page is not there to draw.
    await pdf.getPage(1).catch(() => {
      throw new DrawingRefusal(SHEET_PDF_DAMAGED);
    });
    if (pages > SHEET_MAX_PAGES) throw new DrawingRefusal(fill(SHEET_TOO_MANY_PAGES, { pages, max: SHEET_MAX_PAGES }));
  } finally {
    await pdf.destroy();
  }
  return { pages, scans: await scannedPages(source, pages) };
}

/**
 * libvips's own file format (`.v`): a 64-byte header, then the pixels as they are. sharp reads it
 * through a sliding window of mapped rows, never the whole raster at once.
 */
function vipsHeader(width: number, height: number): Buffer {
  const header = Buffer.alloc(64);
  header.writeUInt32BE(0xb6a6f208, 0); // the magic of a file whose numbers are little-endian
  header.writeInt32LE(width, 4);
  header.writeInt32LE(height, 8);
  header.writeInt32LE(3, 12); // bands: RGB
  header.writeInt32LE(8, 16); // bits per band
  // 20: band format 0 (unsigned char), 24: coding 0 (none)
  header.writeInt32LE(22, 28); // interpretation: sRGB
  header.writeFloatLE(1, 32); // resolution, pixels per mm
  header.writeFloatLE(1, 36);
  return header;
}

/**
 * Draws the page into `file` (a `.v` raster of RGB pixels) at the largest scale within
 * SHEET_MAX_SIDE and the pixel budget, band after band: PDF.js draws each band of rows on one
 * canvas of `bandBytes` (shifted up by the rows already written), so at most one band of the raster
 * is ever in memory, whatever the page's size.
 */
async function rasterisePage(source: string, pageNumber: number, pixelBudget: number, bandBytes: number, file: string) {
  const pdf = await openPdf(source);
  try {
    const page = await pdf.getPage(pageNumber).catch(() => {
      throw new DrawingRefusal(SHEET_PDF_DAMAGED);
    });
    const natural = page.getViewport({ scale: 1 });
    const { scale, width, height } = rasterSize(natural.width, natural.height, pixelBudget);
    const viewport = page.getViewport({ scale });
    const bandRows = Math.min(height, Math.max(16, Math.floor(bandBytes / (width * 4))));
    const { createCanvas } = await import('@napi-rs/canvas');
    const canvas = createCanvas(width, bandRows);
    const context = canvas.getContext('2d');
    const out = await fs.promises.open(file, 'w');
    try {
      await out.write(vipsHeader(width, height));
      for (let top = 0; top < height; top += bandRows) {
        // Paper is white (PDF.js fills the canvas with it first): a transparent page would tile as black JPEG.
        await page.render({ canvas: canvas as never, canvasContext: context as never, viewport, transform: [1, 0, 0, 1, 0, -top], background: '#ffffff' }).promise.catch(() => {
          throw new DrawingRefusal(SHEET_PDF_DAMAGED);
        });
        const rows = Math.min(bandRows, height - top);
        const rgba = canvas.data();
        const rgb = Buffer.allocUnsafe(rows * width * 3);
        for (let from = 0, to = 0; to < rgb.length; from += 4, to += 3) {
          rgb[to] = rgba[from]!;
          rgb[to + 1] = rgba[from + 1]!;
          rgb[to + 2] = rgba[from + 2]!;
        }
        await out.write(rgb);
      }
    } finally {
      await out.close();
    }
    return { width, height };
  } finally {
    await pdf.destroy();
  }
}

type Matrix = [number, number, number, number, number, number];
const multiply = (m: Matrix, n: Matrix): Matrix => [m[0] * n[0] + m[1] * n[2], m[0] * n[1] + m[1] * n[3], m[2] * n[0] + m[3] * n[2], m[2] * n[1] + m[3] * n[3], m[4] * n[0] + m[5] * n[2] + n[4], m[4] * n[1] + m[5] * n[3] + n[5]];

/** A scan's page content (q, cm, Do, Q) takes well under a hundred bytes; anything longer is drawn by PDF.js. */
const SCAN_CONTENT_MAX_BYTES = 4_096;

/**
 * A scanned page's JPEG, as the scanner wrote it: when the page draws one JPEG image (grey or
 * RGB, no mask) upright over its whole area and nothing else (no annotations either), the page *is*
 * that image. sharp then decodes it row by row; PDF.js would hold it decoded whole, twice (its
 * pixels and a canvas of its size: ~0.5 GB for an A0 scan at 200 dpi). Anything else: undefined.
 */
async function scannedPage(pdf: PDFDocument, pageNumber: number): Promise<{ jpeg: Uint8Array; pageWidth: number; pageHeight: number } | undefined> {
  const { PDFArray, PDFDict, PDFName, PDFRawStream, decodePDFRawStream } = await import('pdf-lib');
  const page = pdf.getPage(pageNumber - 1);
  const box = page.getCropBox();
  if (page.getRotation().angle % 360 !== 0 || page.node.Annots()?.size()) return undefined;
  const contents = page.node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((item) => pdf.context.lookup(item)) : [contents];
  let text = '';
  for (const stream of streams) {
    // A scan's content stream is a few operators: a longer one is a drawing, not decoded here.
    if (!(stream instanceof PDFRawStream) || stream.contents.length > SCAN_CONTENT_MAX_BYTES) return undefined;
    text += `${Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1')}\n`;
  }
  // The content stream's operators: only q, Q, cm and one Do are a plain scan.
  const operands: (number | string)[] = [];
  const stack: Matrix[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  let drawn: { name: string; at: Matrix } | undefined;
  for (const [token] of text.matchAll(/%[^\r\n]*|[+-]?(?:\d+\.?\d*|\.\d+)|\/[^\s/[\]()<>{}%]*|[A-Za-z'"*]+|\S/g)) {
    if (token.startsWith('%')) continue;
    if (/^[+-]?[\d.]/.test(token)) operands.push(Number(token));
    else if (token.startsWith('/')) operands.push(token.slice(1));
    else if (token === 'q') stack.push(ctm);
    else if (token === 'Q') ctm = stack.pop() ?? ctm;
    else if (token === 'cm' && operands.length === 6 && operands.every((value) => typeof value === 'number')) ctm = multiply(operands as Matrix, ctm);
    else if (token === 'Do' && !drawn && operands.length === 1) drawn = { name: String(operands[0]), at: ctm };
    else return undefined;
    if (/^[A-Za-z]/.test(token)) operands.length = 0;
  }
  if (!drawn) return undefined;
  const [a, b, c, d, e, f] = drawn.at;
  const near = (value: number, target: number) => Math.abs(value - target) <= Math.max(1, Math.abs(target) * 0.005);
  if (!near(b, 0) || !near(c, 0) || !near(a, box.width) || !near(d, box.height) || !near(e, box.x) || !near(f, box.y)) return undefined;
  const images = page.node.Resources()?.lookup(PDFName.of('XObject'));
  const stream = images instanceof PDFDict ? images.lookup(PDFName.of(drawn.name)) : undefined;
  if (!(stream instanceof PDFRawStream)) return undefined;
  const entry = (key: string) => stream.dict.get(PDFName.of(key))?.toString();
  const filter = entry('Filter');
  if (entry('Subtype') !== '/Image' || !(filter === '/DCTDecode' || filter === '[ /DCTDecode ]') || !['/DeviceGray', '/DeviceRGB'].includes(entry('ColorSpace') ?? '')) return undefined;
  if (entry('BitsPerComponent') !== '8' || ['SMask', 'Mask', 'Decode', 'ImageMask', 'DecodeParms'].some((key) => entry(key) !== undefined)) return undefined;
  return { jpeg: stream.contents, pageWidth: box.width, pageHeight: box.height };
}

/** The raster's size for a page of this many points: the largest within SHEET_MAX_SIDE and the pixel budget. */
function rasterSize(pageWidth: number, pageHeight: number, pixelBudget: number) {
  if (Math.max(pageWidth, pageHeight) > PAGE_MAX_POINTS) throw new DrawingRefusal(SHEET_PAGE_TOO_LARGE);
  const scale = Math.min(SHEET_MAX_SIDE / Math.max(pageWidth, pageHeight), Math.sqrt(pixelBudget / (pageWidth * pageHeight)));
  return { scale, width: Math.max(1, Math.floor(pageWidth * scale)), height: Math.max(1, Math.floor(pageHeight * scale)) };
}

/**
 * Each page's scan (see scannedPage) with where its JPEG lies in the file, decided once for the
 * whole upload: pdf-lib parses the file here, never in a page's render.
 */
async function scannedPages(source: string, pages: number): Promise<(ScannedPage | null)[]> {
  const scans: (ScannedPage | null)[] = Array.from({ length: pages }, () => null);
  const data = await fs.promises.readFile(source);
  const { PDFDocument } = await import('pdf-lib');
  // pdf-lib is stricter than PDF.js (a content stream it cannot decode throws): what it cannot read
  // is no scan, and PDF.js judges the page, as it judged every page before.
  const pdf = await PDFDocument.load(data, { updateMetadata: false }).catch(() => undefined);
  if (pdf?.getPageCount() !== pages) return scans;
  for (let index = 0; index < pages; index++) {
    const scan = await scannedPage(pdf, index + 1).catch(() => undefined);
    if (!scan) continue;
    const meta = await sharp(scan.jpeg).metadata().catch(() => undefined);
    if (meta?.format !== 'jpeg' || !(meta.channels === 1 || meta.channels === 3) || meta.width * meta.height > IMAGE_MAX_PIXELS) continue;
    // A stream's bytes are stored in the file as they are (a stream is never inside another object): found, they are the JPEG.
    const offset = data.indexOf(scan.jpeg);
    if (offset >= 0) scans[index] = { offset, length: scan.jpeg.length, pageWidth: scan.pageWidth, pageHeight: scan.pageHeight };
  }
  return scans;
}

/** A scanned page's JPEG, read from where the inspection found it, as sharp will read it at the size PDF.js would have drawn it. */
async function scanReader(source: string, scan: ScannedPage, pixelBudget: number): Promise<sharp.Sharp> {
  const { width, height } = rasterSize(scan.pageWidth, scan.pageHeight, pixelBudget);
  const jpeg = Buffer.alloc(scan.length);
  const file = await fs.promises.open(source);
  try {
    await file.read(jpeg, 0, scan.length, scan.offset);
  } finally {
    await file.close();
  }
  return sharp(jpeg, { sequentialRead: true, limitInputPixels: IMAGE_MAX_PIXELS, failOn: 'truncated' }).resize(width, height, { fit: 'fill' }).toColourspace('srgb');
}

/** Cuts the image into `outDir`: the tile pyramid (tiles.dzi, tiles_files/) and preview.jpeg. */
async function cut(image: sharp.Sharp, outDir: string) {
  const pyramid = await image.clone().jpeg({ quality: 82, mozjpeg: false }).tile({ size: TILE_SIZE, overlap: 0, layout: 'dz' }).toFile(path.join(outDir, 'tiles'));
  await image.resize(PREVIEW_SIDE, PREVIEW_SIDE, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 80 }).toFile(path.join(outDir, 'preview.jpeg'));
  return { width: pyramid.width, height: pyramid.height, maxLevel: Math.ceil(Math.log2(Math.max(pyramid.width, pyramid.height))) };
}

/** Renders one sheet into `outDir` (tiles/ and preview.jpeg); the caller moves it into place. */
async function render(request: Extract<RenderRequest, { kind: 'render' }>): Promise<{ width: number; height: number; maxLevel: number }> {
  await fs.promises.mkdir(request.outDir, { recursive: true });
  if (request.type === 'image') {
    const meta = await sharp(request.source, { limitInputPixels: IMAGE_MAX_PIXELS }).metadata();
    // A phone's photo of a plan is stored as the camera held it, with an EXIF orientation: the
    // sheet is the picture turned upright, so orientations 5–8 (a quarter turn) swap its sides.
    const [uprightWidth, uprightHeight] = (meta.orientation ?? 1) >= 5 ? [meta.height, meta.width] : [meta.width, meta.height];
    const scale = Math.min(1, SHEET_MAX_SIDE / Math.max(uprightWidth, uprightHeight));
    // At least a pixel: a strip far longer than wide would round its short side to none.
    const [width, height] = [Math.max(1, Math.round(uprightWidth * scale)), Math.max(1, Math.round(uprightHeight * scale))];
    // Decoding for real is where a file that lied in its header fails.
    const image = sharp(request.source, { limitInputPixels: IMAGE_MAX_PIXELS, failOn: 'truncated' }).rotate().resize(width, height, { fit: 'fill' }).flatten({ background: '#ffffff' });
    return cut(image, request.outDir).catch(() => {
      throw new DrawingRefusal(SHEET_IMAGE_DAMAGED);
    });
  }
  if (request.scan) {
    const scan = await scanReader(request.source, request.scan, request.pixelBudget ?? PIXEL_BUDGET);
    try {
      return await cut(scan, request.outDir);
    } catch {
      // A JPEG sharp cannot read whole: PDF.js draws what it can of it.
      await fs.promises.rm(request.outDir, { recursive: true, force: true });
      await fs.promises.mkdir(request.outDir, { recursive: true });
    }
  }
  // The page's raster, on disk while it is cut into tiles; gone with the render.
  const raster = path.join(request.outDir, 'raster.v');
  try {
    await rasterisePage(request.source, request.page, request.pixelBudget ?? PIXEL_BUDGET, request.bandBytes ?? BAND_BYTES, raster);
    return await cut(sharp(raster, { sequentialRead: true }), request.outDir);
  } finally {
    await fs.promises.rm(raster, { force: true });
  }
}

export function runRenderRequest(request: RenderRequest): Promise<RenderAnswer> {
  return request.kind === 'inspect' ? inspect(request.source, request.type) : render(request);
}
