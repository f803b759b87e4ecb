import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerFonts, write, type LineOptions } from './pdf';

const standardFontDataUrl = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

interface Line {
  text: string;
  options?: LineOptions;
}

/**
 * Each line as a reader's PDF tool extracts it: the pieces of text on its baseline from left to
 * right, each as pdf.js gives it (a right-to-left piece in reading order), presentation forms of
 * Arabic letters read as the letters (NFKC), blanks collapsed.
 */
async function extractLines(lines: Line[]): Promise<string[][]> {
  const doc = new PDFDocument({ size: 'A4', margin: 40 });
  registerFonts(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => doc.on('end', resolve));
  lines.forEach((line, index) => write(doc, line.text, 40, 40 + index * 24, { size: 12, ...line.options }));
  doc.end();
  await ended;
  const pdf = await getDocument({ data: new Uint8Array(Buffer.concat(chunks)), isEvalSupported: false, standardFontDataUrl }).promise;
  const items = (await (await pdf.getPage(1)).getTextContent()).items.flatMap((item) => ('str' in item && item.str.trim() ? [{ text: item.str, x: item.transform[4] as number, y: item.transform[5] as number }] : []));
  await pdf.destroy();
  const baselines = [...new Set(items.map((item) => Math.round(item.y)))].sort((a, b) => b - a);
  return baselines.map((baseline) =>
    items
      .filter((item) => Math.round(item.y) === baseline)
      .sort((a, b) => a.x - b.x)
      .map((item) => item.text.normalize('NFKC').replace(/\s+/g, ' ').trim()),
  );
}

describe('PDF text lines', () => {
  const lines: Line[] = [
    { text: 'تركيب السقالات' },
    { text: 'العمل الرئيسي للطابق الثالث' },
    { text: 'صب الخرسانة 12 متر' },
    { text: 'Appraisal report for عمر' },
    { text: 'عمر@example.test' },
    { text: 'مرحلة (أ)' },
    { text: 'لا إله' },
    { text: 'Γέφυρα Ρίου, Мост, 浦东大桥, Crane 🏗' },
    { text: 'تركيب السقالات', options: { direction: 'rtl' } },
    { text: 'Phase 2 تركيب', options: { direction: 'rtl' } },
  ];
  let extracted: string[][];
  beforeAll(async () => {
    extracted = await extractLines(lines);
  });

  it('gives back each line on a line of its own', () => {
    expect(extracted).toHaveLength(lines.length);
  });

  it('writes Arabic joined and right to left, every letter and space coming back as written', () => {
    expect(extracted[0]).toEqual(['تركيب السقالات']);
    expect(extracted[1]).toEqual(['العمل الرئيسي للطابق الثالث']);
    // Lam and alef as their one ligature, read back as both letters.
    expect(extracted[6]).toEqual(['لا إله']);
  });

  it('keeps numbers and Latin words in their own order inside right-to-left text, and right-to-left words in theirs inside a left-to-right line', () => {
    // Read from the right: صب الخرسانة, then 12, then متر.
    expect(extracted[2]).toEqual(['متر', '12', 'صب الخرسانة']);
    expect(extracted[3]).toEqual(['Appraisal report for', 'عمر']);
    expect(extracted[4]).toEqual(['عمر', '@example.test']);
  });

  it('mirrors brackets in right-to-left text', () => {
    // Logical "(أ)" after the word: drawn to its left, the brackets still enclosing the letter.
    expect(extracted[5]!.join('')).toBe('(أ)مرحلة');
  });

  it('leaves left-to-right scripts as they were', () => {
    expect(extracted[7]).toEqual(['Γέφυρα Ρίου, Мост,', '浦东大桥', ', Crane', '🏗']);
  });

  it('lays out a right-to-left paragraph with its Latin words to the left', () => {
    expect(extracted[8]).toEqual(['تركيب السقالات']);
    expect(extracted[9]).toEqual(['تركيب', 'Phase 2']);
  });
});
