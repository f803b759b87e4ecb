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
