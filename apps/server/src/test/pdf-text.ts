import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';

const standardFontDataUrl = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/**
 * A PDF as a reader meets it: each page's text as copy-paste gives it (the strings in drawing
 * order, whitespace collapsed), and how many images it draws.
 */
export async function readPdf(pdf: Buffer): Promise<{ pages: string[]; images: number }> {
  const document = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false, standardFontDataUrl }).promise;
  const pages: string[] = [];
  let images = 0;
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    pages.push(
      content.items
        .map((item) => ('str' in item ? item.str : ''))
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim(),
    );
    images += (await page.getOperatorList()).fnArray.filter((fn) => fn === OPS.paintImageXObject).length;
  }
  await document.destroy();
  return { pages, images };
}

/**
 * Each page's lines of text from top to bottom, as a reader sees them: the pieces on one baseline
 * left to right, with the line's distance from the top of the page in points (its highest piece's).
 */
export async function readPdfLines(pdf: Buffer): Promise<{ top: number; text: string }[][]> {
  const document = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false, standardFontDataUrl }).promise;
  const pages: { top: number; text: string }[][] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number);
    const height = page.view[3]!;
    const items = (await page.getTextContent()).items.flatMap((item) => ('str' in item && item.str.trim() ? [{ text: item.str, x: item.transform[4] as number, top: height - (item.transform[5] as number) }] : []));
    // Pieces within 3 points of each other share a line: a label shrunk to fit sits a little higher.
    const baselines = items
      .map((item) => item.top)
      .sort((a, b) => a - b)
      .reduce<number[]>((tops, top) => (tops.length > 0 && top - tops.at(-1)! <= 3 ? tops : [...tops, top]), []);
    const lineOf = (top: number) => baselines.findLast((baseline) => baseline <= top + 0.001)!;
    pages.push(
      baselines.map((top) => ({
        top: Math.round(top),
        text: items
          .filter((item) => lineOf(item.top) === top)
          .sort((a, b) => a.x - b.x)
          .map((item) => item.text)
          .join(' ')
          .replace(/\s+/g, ' ')
          .trim(),
      })),
    );
  }
  await document.destroy();
  return pages;
}
