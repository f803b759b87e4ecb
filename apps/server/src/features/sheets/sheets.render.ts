/**
 * Turning an uploaded drawing into what the viewer loads (issue 43): a PDF page rendered by PDF.js
 * on a @napi-rs/canvas (both Apache-2.0/MIT), or an image as it is, cut by sharp into a Deep Zoom
 * tile pyramid plus a preview of at most 1,024 px. Runs in a process of its own
 * (sheets.render-process.ts): rendering a page is seconds of CPU and hundreds of MB the server must not spend.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { SHEET_IMAGE_DAMAGED, SHEET_IMAGE_TOO_LARGE, SHEET_MAX_PAGES, SHEET_MAX_SIDE, SHEET_PAGE_TOO_LARGE, SHEET_PDF_DAMAGED, SHEET_PDF_ENCRYPTED, SHEET_TOO_MANY_PAGES, fill } from '@siteboard/shared';

/** Pixels one raster may hold: 48 M RGBA pixels is ~190 MB, what one render may take whatever the page size. */
export const PIXEL_BUDGET = 48_000_000;
/** The most pixels an uploaded image may claim: more is a lie or nothing a phone can show. */
export const IMAGE_MAX_PIXELS = 400_000_000;
export const TILE_SIZE = 256;
export const PREVIEW_SIDE = 1024;
/** A page larger than 5 m on a side (PDF's own limit is 200 in): no drawing is. */
const PAGE_MAX_POINTS = (5_000 / 25.4) * 72;

/** A refusal of the file itself: its text (a catalog text, filled in) is what the person reads. */
export class DrawingRefusal extends Error {}

export type RenderRequest = { kind: 'inspect'; source: string; type: 'pdf' | 'image' } | { kind: 'render'; source: string; type: 'pdf' | 'image'; page: number; outDir: string; pixelBudget?: number };
export type RenderAnswer = { pages: number } | { width: number; height: number; maxLevel: number };

const pdfjsRoot = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

async function openPdf(source: string) {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const data = new Uint8Array(await fs.promises.readFile(source));
  try {
    return await getDocument({ data, isEvalSupported: false, standardFontDataUrl: `${path.join(pdfjsRoot, 'standard_fonts')}/`, cMapUrl: `${path.join(pdfjsRoot, 'cmaps')}/`, verbosity: 0 }).promise;
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'PasswordException') throw new DrawingRefusal(SHEET_PDF_ENCRYPTED);
    throw new DrawingRefusal(SHEET_PDF_DAMAGED);
  }
}

/** What an upload holds: its page count (a PDF's; an image is one page), or a refusal. */
async function inspect(source: string, type: 'pdf' | 'image'): Promise<{ pages: number }> {
  if (type === 'image') {
    const meta = await sharp(source).metadata().catch(() => {
      throw new DrawingRefusal(SHEET_IMAGE_DAMAGED);
    });
    if (!meta.width || !meta.height) throw new DrawingRefusal(SHEET_IMAGE_DAMAGED);
    if (meta.width * meta.height > IMAGE_MAX_PIXELS) throw new DrawingRefusal(fill(SHEET_IMAGE_TOO_LARGE, { max: IMAGE_MAX_PIXELS / 1_000_000 }));
    return { pages: 1 };
  }
  const pdf = await openPdf(source);
  try {
    if (pdf.numPages > SHEET_MAX_PAGES) throw new DrawingRefusal(fill(SHEET_TOO_MANY_PAGES, { pages: pdf.numPages, max: SHEET_MAX_PAGES }));
    return { pages: pdf.numPages };
  } finally {
    await pdf.destroy();
  }
}

/** The page as raw RGBA pixels, at the largest scale within SHEET_MAX_SIDE and the pixel budget. */
async function rasterisePage(source: string, pageNumber: number, pixelBudget: number) {
  const pdf = await openPdf(source);
  try {
    const page = await pdf.getPage(pageNumber).catch(() => {
      throw new DrawingRefusal(SHEET_PDF_DAMAGED);
    });
    const natural = page.getViewport({ scale: 1 });
    if (Math.max(natural.width, natural.height) > PAGE_MAX_POINTS) throw new DrawingRefusal(SHEET_PAGE_TOO_LARGE);
    const scale = Math.min(SHEET_MAX_SIDE / Math.max(natural.width, natural.height), Math.sqrt(pixelBudget / (natural.width * natural.height)));
    const viewport = page.getViewport({ scale });
    const width = Math.max(1, Math.floor(viewport.width));
    const height = Math.max(1, Math.floor(viewport.height));
    const { createCanvas } = await import('@napi-rs/canvas');
    const canvas = createCanvas(width, height);
    const context = canvas.getContext('2d');
    // Paper is white: a transparent page would tile as black JPEG.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise.catch(() => {
      throw new DrawingRefusal(SHEET_PDF_DAMAGED);
    });
    return { canvas, pixels: canvas.data(), width, height };
  } finally {
    await pdf.destroy();
  }
}

/** Renders one sheet into `outDir` (tiles/ and preview.jpeg); the caller moves it into place. */
async function render(request: Extract<RenderRequest, { kind: 'render' }>): Promise<{ width: number; height: number; maxLevel: number }> {
  let image: sharp.Sharp;
  let width: number;
  let height: number;
  // The raster's pixels are the canvas's own memory, not a copy: the canvas must outlive sharp's reading of them.
  let raster: Awaited<ReturnType<typeof rasterisePage>> | undefined;
  if (request.type === 'pdf') {
    raster = await rasterisePage(request.source, request.page, request.pixelBudget ?? PIXEL_BUDGET);
    ({ width, height } = raster);
    image = sharp(raster.pixels, { raw: { width, height, channels: 4 } }).removeAlpha();
  } else {
    const meta = await sharp(request.source, { limitInputPixels: IMAGE_MAX_PIXELS }).metadata();
    const scale = Math.min(1, SHEET_MAX_SIDE / Math.max(meta.width!, meta.height!));
    width = Math.round(meta.width! * scale);
    height = Math.round(meta.height! * scale);
    // Decoding for real is where a file that lied in its header fails.
    image = sharp(request.source, { limitInputPixels: IMAGE_MAX_PIXELS, failOn: 'truncated' }).rotate().resize(width, height).flatten({ background: '#ffffff' });
  }
  await fs.promises.mkdir(request.outDir, { recursive: true });
  try {
    const pyramid = await image.clone().jpeg({ quality: 82, mozjpeg: false }).tile({ size: TILE_SIZE, overlap: 0, layout: 'dz' }).toFile(path.join(request.outDir, 'tiles'));
    await image.resize(PREVIEW_SIDE, PREVIEW_SIDE, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 80 }).toFile(path.join(request.outDir, 'preview.jpeg'));
    return { width: pyramid.width, height: pyramid.height, maxLevel: Math.ceil(Math.log2(Math.max(pyramid.width, pyramid.height))) };
  } catch (error) {
    if (request.type === 'image') throw new DrawingRefusal(SHEET_IMAGE_DAMAGED);
    throw error;
  } finally {
    // Released only now that sharp has read every pixel.
    raster = undefined;
  }
}

export function runRenderRequest(request: RenderRequest): Promise<RenderAnswer> {
  return request.kind === 'inspect' ? inspect(request.source, request.type) : render(request);
}

/**
 * The rendering process's file: beside this one as TypeScript (run through tsx), or
 * `dist/sheets-render.js` beside the compiled server.
 */
function processEntry(): { file: string; execArgv: string[] } {
  // The tests compile it once per run (test/global-setup.ts).
  const compiled = process.env.SITEBOARD_SHEETS_RENDER_FILE;
  if (compiled) return { file: compiled, execArgv: [] };
  const here = fileURLToPath(import.meta.url);
  const typescript = here.endsWith('.ts');
  return { file: path.join(path.dirname(here), typescript ? 'sheets.render-process.ts' : 'sheets-render.js'), execArgv: typescript ? ['--import', 'tsx'] : [] };
}

/**
 * Runs one request in a process of its own, which ends with it: its memory (a page's raster)
 * is never the server's, and stopping it mid-page is safe (a native canvas is not, on a
 * terminated thread). The signal ends it early. A refusal of the file rejects with a DrawingRefusal.
 */
export function onRenderProcess<Answer extends RenderAnswer>(request: RenderRequest, signal?: AbortSignal): Promise<Answer> {
  if (signal?.aborted) return Promise.reject(new Error('Rendering stopped: the server is stopping.'));
  const entry = processEntry();
  const child = fork(entry.file, [], { execArgv: entry.execArgv, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise<Answer>((resolve, reject) => {
    const abort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', abort, { once: true });
    let settled = false;
    child.once('message', (message: { ok: true; answer: Answer } | { ok: false; refusal?: string; error: string }) => {
      settled = true;
      if (message.ok) resolve(message.answer);
      else reject(message.refusal ? new DrawingRefusal(message.refusal) : new Error(message.error));
    });
    child.once('error', (error) => {
      settled = true;
      reject(error);
    });
    child.once('exit', (code, exitSignal) => {
      signal?.removeEventListener('abort', abort);
      if (!settled) reject(new Error(signal?.aborted ? 'Rendering stopped: the server is stopping.' : `The rendering process ended with ${exitSignal ?? `code ${code}`}.`));
    });
    child.send(request);
  });
}
