/**
 * Text in PDFs for every reader (pdfkit), and the A4 layout SiteBoard's PDFs share (the appraisal
 * report and the daily log): names and words in any script the fonts cover, every character in the
 * first font of the stack that has it; Arabic shaped into its joined letter forms; each line put in
 * visual order by the Unicode bidirectional algorithm, so right-to-left text reads right on the page
 * and comes back as it was written when the PDF's text is copied or extracted (decision record 058);
 * measured, so a cell cuts text short or shrinks it instead of running over.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import bidiFactory from 'bidi-js';

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

export type PdfDocument = PDFKit.PDFDocument;
export type Doc = PdfDocument;
export type Weight = 'regular' | 'bold';
/** A line's direction as a paragraph; right-to-left words inside a left-to-right line keep their own order. */
export type Direction = 'ltr' | 'rtl';

/**
 * The fonts text is printed in, per weight, tried in order for each character: Latin, Greek and
 * Cyrillic; Arabic; Chinese and Japanese; emoji (monochrome: PDF text has no colour fonts). Read
 * once from their npm packages; each document embeds only the glyphs it uses.
 */
const FONT_FILES: Record<Weight, string[]> = {
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
};

interface LoadedFont {
  name: string;
  data: Buffer;
  /** How far the baseline lies below the top of a line, per point of font size. */
  ascent: number;
  covers(codePoint: number): boolean;
}

const require = createRequire(import.meta.url);

let loaded: Record<Weight, LoadedFont[]> | undefined;
export function fonts(): Record<Weight, LoadedFont[]> {
  if (loaded) return loaded;
  const fontkit = require('fontkit') as { create(data: Buffer): { ascent: number; unitsPerEm: number; hasGlyphForCodePoint(codePoint: number): boolean } };
  loaded = Object.fromEntries(
    (Object.keys(FONT_FILES) as Weight[]).map((weight) => [
      weight,
      FONT_FILES[weight].map((file, index) => {
        const data = fs.readFileSync(require.resolve(file));
        const font = fontkit.create(data);
        return { name: `${weight}-${index}`, data, ascent: font.ascent / font.unitsPerEm, covers: (codePoint: number) => font.hasGlyphForCodePoint(codePoint) };
      }),
    ]),
  ) as Record<Weight, LoadedFont[]>;
  return loaded;
}

/** Makes the font stack available to a document; call once, before writing. */
export function registerFonts(doc: PdfDocument) {
  for (const font of [...fonts().regular, ...fonts().bold]) doc.registerFont(font.name, font.data);
}

/** The Latin font of a weight, for a paragraph pdfkit wraps itself (text known to be Latin). */
export const latinFont = (weight: Weight) => fonts()[weight][0]!.name;

/**
 * Arabic letters as their contextual forms (initial, medial, final, isolated; lam-alef as one
 * ligature), written with the Presentation Forms code points. The font draws each form as one
 * glyph that maps back to one letter; left to its own shaping, it draws a letter as a dotless
 * body plus separate dots, which text extraction reads back as other letters and stray codes.
 */
const { ArabicShaper } = require('arabic-persian-reshaper') as { ArabicShaper: { convertArabic(text: string): string } };

const bidi = bidiFactory();

/** A character of a right-to-left script, or one of their presentation forms. */
const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
const ARABIC = /[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff]/;

/**
 * The line in visual order, left to right: the bidirectional algorithm's levels for the line as a
 * paragraph of the given direction, mirrored brackets in right-to-left runs, then its reorderings.
 * bidi-js counts UTF-16 units, so a reversed surrogate pair is put back.
 */
function visualOrder(line: string, direction: Direction): string {
  if (!RIGHT_TO_LEFT.test(line)) return line;
  const levels = bidi.getEmbeddingLevels(line, direction);
  const units = line.split('');
  for (const [index, mirrored] of bidi.getMirroredCharactersMap(line, levels.levels)) units[index] = mirrored;
  for (const [start, end] of bidi.getReorderSegments(line, levels)) units.splice(start, end - start + 1, ...units.slice(start, end + 1).reverse());
  return units.join('').replace(/([\udc00-\udfff])([\ud800-\udbff])/g, '$2$1');
}

/**
 * fontkit lays out a run whose first letter is of a right-to-left script from right to left: it
 * reverses the glyphs it is given. Such a run, already in visual order, is handed over reversed,
 * and whole (`features` set keeps pdfkit from laying it out word by word, which would keep its
 * words in their written order): fontkit's reversal puts it back in the visual order. The font's
 * composition features stay off for it (`ccmp`, `rlig`): they would take the shaped forms apart
 * into a body and dots again.
 */
const SCRIPTED = /[^\p{Script=Common}\p{Script=Inherited}\p{Script=Unknown}]/u;
const RIGHT_TO_LEFT_SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const laidOutRightToLeft = (text: string) => RIGHT_TO_LEFT_SCRIPT.test(SCRIPTED.exec(text)?.[0] ?? '');
/** pdfkit hands `features` to fontkit, which also takes (and fills in) an object of features on or off. */
const shapedFormsAsTheyAre = () => ({ ccmp: false, rlig: false }) as unknown as PDFKit.Mixins.OpenTypeFeatures[];

interface Run {
  font: string;
  text: string;
  features?: PDFKit.Mixins.OpenTypeFeatures[];
}

/**
 * The line cut into runs of one font each, left to right as they are drawn: every character in the
 * first font that has it (spaces stay in the run they are in); control characters become spaces,
 * and a character no font has becomes "?".
 */
function runsOf(text: string, weight: Weight, direction: Direction): Run[] {
  const stack = fonts()[weight];
  // eslint-disable-next-line no-control-regex -- control characters are what is replaced
  const printable = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
  const line = visualOrder(ARABIC.test(printable) ? ArabicShaper.convertArabic(printable) : printable, direction);
  const runs: Run[] = [];
  for (const char of line) {
    const font = char === ' ' && runs.length > 0 ? undefined : stack.find((candidate) => candidate.covers(char.codePointAt(0)!));
    const last = runs.at(-1);
    if (!font && char === ' ' && last) last.text += char;
    else if (!font) runs.push({ font: stack[0]!.name, text: '?' });
    else if (last?.font === font.name) last.text += char;
    else runs.push({ font: font.name, text: char });
  }
  return runs.map((run) => (laidOutRightToLeft(run.text) ? { font: run.font, text: [...run.text].reverse().join(''), features: shapedFormsAsTheyAre() } : run));
}

function runsWidth(doc: PdfDocument, runs: Run[], size: number, characterSpacing = 0): number {
  return runs.reduce((width, run) => width + doc.font(run.font).fontSize(size).widthOfString(run.text, { characterSpacing, features: run.features }), 0);
}

/** Cuts text to one line of the given width, ending in an ellipsis when cut. */
function fit(doc: PdfDocument, text: string, weight: Weight, direction: Direction, size: number, width: number, characterSpacing?: number): Run[] {
  const whole = runsOf(text, weight, direction);
  if (runsWidth(doc, whole, size, characterSpacing) <= width) return whole;
  const chars = [...text];
  let low = 0;
  let high = chars.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (runsWidth(doc, runsOf(`${chars.slice(0, middle).join('').trimEnd()}…`, weight, direction), size, characterSpacing) <= width) low = middle;
    else high = middle - 1;
  }
  return runsOf(`${chars.slice(0, low).join('').trimEnd()}…`, weight, direction);
}

function shrunk(doc: PdfDocument, text: string, weight: Weight, direction: Direction, size: number, width: number, characterSpacing: number): number {
  const natural = runsWidth(doc, runsOf(text, weight, direction), size, characterSpacing);
  return natural <= width ? size : Math.max(size * 0.7, (size * width) / natural);
}

export interface LineOptions {
  bold?: boolean;
  /** Points; 10 unless given. */
  size?: number;
  color?: string;
  /** The box the line must fit: longer text is cut short with an ellipsis (or first shrunk, with `shrink`). */
  width?: number;
  align?: 'left' | 'right' | 'center';
  characterSpacing?: number;
  /** A label in a longer language gets smaller (down to 70 %) before it is cut short. */
  shrink?: boolean;
  /** Left to right unless given: SiteBoard's languages all are. */
  direction?: Direction;
}

/** One line of text whose top is at (x, y), never wrapped. */
export function write(doc: PdfDocument, text: string, x: number, y: number, options: LineOptions = {}) {
  const { bold = false, color = INK, width, align = 'left', characterSpacing = 0, direction = 'ltr' } = options;
  const weight: Weight = bold ? 'bold' : 'regular';
  const size = options.shrink && width !== undefined ? shrunk(doc, text, weight, direction, options.size ?? 10, width, characterSpacing) : (options.size ?? 10);
  const runs = width === undefined ? runsOf(text, weight, direction) : fit(doc, text, weight, direction, size, width, characterSpacing);
  const total = runsWidth(doc, runs, size, characterSpacing);
  let cursor = width === undefined || align === 'left' ? x : align === 'right' ? x + width - total : x + (width - total) / 2;
  // Every run on the Latin font's baseline: each font's own ascent would set Arabic or Chinese lower.
  const baseline = y + size * fonts()[weight][0]!.ascent;
  doc.fillColor(color);
  for (const run of runs) {
    doc.font(run.font).fontSize(size).text(run.text, cursor, baseline, { lineBreak: false, characterSpacing, features: run.features, baseline: 'alphabetic' });
    cursor += doc.widthOfString(run.text, { characterSpacing, features: run.features });
  }
}

/**
 * A word wider than a line in pieces that each fit: after its own hyphens where it has them
 * ("Sigmaringen-" "Veringen"), else between letters with a hyphen added, so the reader sees it
 * goes on. A piece of one letter that still does not fit is left to `write` to cut.
 */
function wordPieces(word: string, fits: (text: string) => boolean): string[] {
  const pieces: string[] = [];
  let rest = [...word];
  while (rest.length > 1 && !fits(rest.join(''))) {
    let cut = 0;
    for (let index = rest.length - 1; index > 0 && cut === 0; index--) if (rest[index - 1] === '-' && fits(rest.slice(0, index).join(''))) cut = index;
    let piece = rest.slice(0, cut).join('');
    if (cut === 0) {
      // The longest start that fits with its hyphen (widths grow with the letters: a binary search).
      let low = 1;
      let high = rest.length - 1;
      while (low < high) {
        const middle = Math.ceil((low + high) / 2);
        if (fits(`${rest.slice(0, middle).join('')}-`)) low = middle;
        else high = middle - 1;
      }
      cut = low;
      piece = `${rest.slice(0, cut).join('')}-`;
    }
    pieces.push(piece);
    rest = rest.slice(cut);
  }
  return [...pieces, rest.join('')];
}

/**
 * Text broken into lines of at most `width` at its spaces and line breaks, as `write` would draw
 * them; a word wider than a line is broken too (`wordPieces`), or with `keepWords` left whole on a line
 * of its own (a label `write` may shrink). For text that must be read whole.
 */
export function wrapLines(doc: Doc, text: string, options: { bold?: boolean; size: number; width: number; characterSpacing?: number; keepWords?: boolean }): string[] {
  const weight: Weight = options.bold ? 'bold' : 'regular';
  const fits = (line: string) => runsWidth(doc, runsOf(line, weight, 'ltr'), options.size, options.characterSpacing) <= options.width;
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (fits(candidate)) line = candidate;
      else {
        if (line) lines.push(line);
        const pieces = options.keepWords ? [word] : wordPieces(word, fits);
        lines.push(...pieces.slice(0, -1));
        line = pieces.at(-1)!;
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
  registerFonts(doc);
  const chunks: Buffer[] = [];
  const bytes = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, bytes };
}

/**
 * Every page's footer, once the document is laid out: a rule, what it is at the left (whole, on as
 * many lines as it takes: a long project name is what tells two sites' papers apart), "Page n of m"
 * at the right.
 */
export function footers(doc: Doc, left: string, pageOf: (page: number, count: number) => string) {
  const lines = wrapLines(doc, left, { size: 8, width: CONTENT_WIDTH - 90 });
  const { start, count } = doc.bufferedPageRange();
  for (let index = start; index < start + count; index++) {
    doc.switchToPage(index);
    // Writing below the bottom margin would otherwise start a new page.
    doc.page.margins.bottom = 0;
    const y = PAGE.height - 40;
    doc.moveTo(LEFT, y - 8).lineTo(RIGHT, y - 8).lineWidth(0.5).strokeColor(RULE).stroke();
    lines.forEach((line, index) => write(doc, line, LEFT, y + index * 9, { size: 8, color: MUTED, width: CONTENT_WIDTH - 90 }));
    write(doc, pageOf(index - start + 1, count), RIGHT - 90, y, { size: 8, color: MUTED, width: 90, align: 'right' });
  }
}
