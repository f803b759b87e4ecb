/**
 * Text in PDFs for every reader (pdfkit): names and words in any script drawn with the Noto fonts
 * that have their characters, measured so a cell cuts them short or shrinks them instead of
 * running over. The appraisal report and the daily log write with it.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';

export const INK = '#0f172a';
export const MUTED = '#64748b';
export const RULE = '#e2e8f0';
export const PANEL = '#f8fafc';

/** An A4 page in points, and the margins SiteBoard's PDFs keep. */
export const PAGE = { width: 595.28, height: 841.89 };
export const MARGIN = { top: 56, side: 48, bottom: 64 };
export const LEFT = MARGIN.side;
export const RIGHT = PAGE.width - MARGIN.side;
export const CONTENT_WIDTH = RIGHT - LEFT;
export const BOTTOM = PAGE.height - MARGIN.bottom;

export type Doc = PDFKit.PDFDocument;

/**
 * The fonts names are printed in, per weight, tried in order for each character: Latin, Greek and
 * Cyrillic; Arabic; Chinese and Japanese; emoji (monochrome: PDF text has no colour fonts). Read
 * once from their npm packages; each document embeds only the glyphs it uses.
 */
const FONT_FILES = {
  regular: [
    '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
    '@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf',
    '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
    '@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf',
  ],
  bold: [
    '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
    '@expo-google-fonts/noto-sans-arabic/700Bold/NotoSansArabic_700Bold.ttf',
    '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
    '@expo-google-fonts/noto-emoji/700Bold/NotoEmoji_700Bold.ttf',
  ],
} as const;
export type Weight = keyof typeof FONT_FILES;

interface LoadedFont {
  name: string;
  data: Buffer;
  covers(codePoint: number): boolean;
}

const require = createRequire(import.meta.url);

let loaded: Record<Weight, LoadedFont[]> | undefined;
export function fonts(): Record<Weight, LoadedFont[]> {
  if (loaded) return loaded;
  const fontkit = require('fontkit') as { create(data: Buffer): { hasGlyphForCodePoint(codePoint: number): boolean } };
  loaded = Object.fromEntries(
    (Object.keys(FONT_FILES) as Weight[]).map((weight) => [
      weight,
      FONT_FILES[weight].map((file, index) => {
        const data = fs.readFileSync(require.resolve(file));
        const font = fontkit.create(data);
        return { name: `${weight}-${index}`, data, covers: (codePoint: number) => font.hasGlyphForCodePoint(codePoint) };
      }),
    ]),
  ) as Record<Weight, LoadedFont[]>;
  return loaded;
}

interface Run {
  font: string;
  text: string;
}

/**
 * The text cut into runs of one font each: every character in the first font that has it (spaces
 * stay in the run they are in); control characters become spaces, and a character no font has
 * becomes "?".
 */
function runsOf(text: string, weight: Weight): Run[] {
  const stack = fonts()[weight];
  const runs: Run[] = [];
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    const printable = codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0) ? ' ' : char;
    const font = printable === ' ' && runs.length > 0 ? undefined : stack.find((candidate) => candidate.covers(printable.codePointAt(0)!));
    const last = runs.at(-1);
    if (!font && printable === ' ' && last) last.text += printable;
    else if (!font) runs.push({ font: stack[0]!.name, text: '?' });
    else if (last?.font === font.name) last.text += printable;
    else runs.push({ font: font.name, text: printable });
  }
  return runs;
}

function runsWidth(doc: Doc, runs: Run[], size: number, characterSpacing = 0): number {
  return runs.reduce((width, run) => width + doc.font(run.font).fontSize(size).widthOfString(run.text, { characterSpacing }), 0);
}

/** Cuts text to one line of the given width, ending in an ellipsis when cut. */
function fit(doc: Doc, text: string, weight: Weight, size: number, width: number, characterSpacing?: number): Run[] {
  const whole = runsOf(text, weight);
  if (runsWidth(doc, whole, size, characterSpacing) <= width) return whole;
  const chars = [...text];
  let low = 0;
  let high = chars.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (runsWidth(doc, runsOf(`${chars.slice(0, middle).join('').trimEnd()}…`, weight), size, characterSpacing) <= width) low = middle;
    else high = middle - 1;
  }
  return runsOf(`${chars.slice(0, low).join('').trimEnd()}…`, weight);
}

function shrunk(doc: Doc, text: string, weight: Weight, size: number, width: number, characterSpacing: number): number {
  const natural = runsWidth(doc, runsOf(text, weight), size, characterSpacing);
  return natural <= width ? size : Math.max(size * 0.7, (size * width) / natural);
}

export function write(
  doc: Doc,
  text: string,
  x: number,
  y: number,
  options: { bold?: boolean; size?: number; color?: string; width?: number; align?: 'left' | 'right' | 'center'; characterSpacing?: number; shrink?: boolean } = {},
) {
  const { bold = false, color = INK, width, align = 'left', characterSpacing = 0 } = options;
  const weight: Weight = bold ? 'bold' : 'regular';
  // A label in a longer language gets smaller (down to 70 %) before it is cut short.
  const size = options.shrink && width !== undefined ? shrunk(doc, text, weight, options.size ?? 10, width, characterSpacing) : (options.size ?? 10);
  const runs = width === undefined ? runsOf(text, weight) : fit(doc, text, weight, size, width, characterSpacing);
  const total = runsWidth(doc, runs, size, characterSpacing);
  let cursor = width === undefined || align === 'left' ? x : align === 'right' ? x + width - total : x + (width - total) / 2;
  doc.fillColor(color);
  for (const run of runs) {
    doc.font(run.font).fontSize(size).text(run.text, cursor, y, { lineBreak: false, characterSpacing });
    cursor += doc.widthOfString(run.text, { characterSpacing });
  }
}

/**
 * Text broken into lines of at most `width` at its spaces and line breaks, as `write` would draw
 * them; a word wider than a line is cut short. For free text (notes, reasons) that must be read whole.
 */
export function wrapLines(doc: Doc, text: string, options: { bold?: boolean; size: number; width: number }): string[] {
  const weight: Weight = options.bold ? 'bold' : 'regular';
  const fits = (line: string) => runsWidth(doc, runsOf(line, weight), options.size) <= options.width;
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (fits(candidate)) line = candidate;
      else {
        if (line) lines.push(line);
        line = word;
      }
    }
    lines.push(line);
  }
  return lines;
}

/**
 * A new A4 document with the margins and fonts, and its bytes once it is ended. pdfkit loads with
 * the first document: it and its fonts would cost the start and idle memory of every server otherwise.
 */
export async function openA4(options: { lang: string; info: PDFKit.DocumentInfo }): Promise<{ doc: Doc; bytes: Promise<Buffer> }> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', bufferPages: true, margins: { top: MARGIN.top, bottom: MARGIN.bottom, left: MARGIN.side, right: MARGIN.side }, ...options });
  for (const font of [...fonts().regular, ...fonts().bold]) doc.registerFont(font.name, font.data);
  const chunks: Buffer[] = [];
  const bytes = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, bytes };
}

/** Every page's footer, once the document is laid out: a rule, what it is at the left, "Page n of m" at the right. */
export function footers(doc: Doc, left: string, pageOf: (page: number, count: number) => string) {
  const { start, count } = doc.bufferedPageRange();
  for (let index = start; index < start + count; index++) {
    doc.switchToPage(index);
    // Writing below the bottom margin would otherwise start a new page.
    doc.page.margins.bottom = 0;
    const y = PAGE.height - 40;
    doc.moveTo(LEFT, y - 8).lineTo(RIGHT, y - 8).lineWidth(0.5).strokeColor(RULE).stroke();
    write(doc, left, LEFT, y, { size: 8, color: MUTED, width: CONTENT_WIDTH - 90 });
    write(doc, pageOf(index - start + 1, count), RIGHT - 90, y, { size: 8, color: MUTED, width: 90, align: 'right' });
  }
}
