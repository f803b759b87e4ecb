/**
 * What the server and the rendering process (sheets.render.ts) say to each other: the requests,
 * the answers, the refusals. It imports nothing, so that neither side loads the other's libraries.
 */
export const TILE_SIZE = 256;

/** A refusal of the file itself: its text (a catalog text, filled in) is what the person reads. */
export class DrawingRefusal extends Error {}

/**
 * A scanned page (see scannedPage), as the upload's inspection found it: where its JPEG lies in the
 * PDF file, in bytes, and the page's size in points. The page's rendering job carries it, so a
 * page's render reads those bytes and never parses the whole file again (decision record 092).
 */
export type ScannedPage = { offset: number; length: number; pageWidth: number; pageHeight: number };
/** What an upload holds: its pages, and for a PDF each page's scan (or null: PDF.js draws it). */
export type Inspection = { pages: number; scans: (ScannedPage | null)[] };
export type RenderRequest =
  | { kind: 'inspect'; source: string; type: 'pdf' | 'image' }
  | { kind: 'render'; source: string; type: 'pdf' | 'image'; page: number; outDir: string; scan?: ScannedPage | null; pixelBudget?: number; bandBytes?: number };
export type RenderAnswer = Inspection | { width: number; height: number; maxLevel: number };
