import { expect, test } from '../test';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { DEMO, DEMO_NAMES, signIn } from '../fixtures';

const standardFontDataUrl = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** The document's text as a reader would copy it, every page, whitespace collapsed. */
async function pdfText(bytes: Buffer): Promise<string> {
  const document = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, standardFontDataUrl }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const content = await (await document.getPage(number)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await document.destroy();
  return pages.join(' ').replace(/\s+/g, ' ');
}

function isoDay(offsetDays: number) {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

test('the admin generates an appraisal report with its chart and downloads it as a PDF', async ({ page }) => {
  await signIn(page, 'admin');
  const section = page.getByRole('region', { name: 'Appraisal Report' });
  const person = section.getByLabel('User');

  // Admins are not appraised, so they are not offered.
  await expect(person.locator('option', { hasText: DEMO.accounts.admin })).toHaveCount(0);
  await section.getByRole('button', { name: 'Generate Report' }).click();
  await expect(section.getByText('Select a user.')).toBeVisible();

  const option = (await person.locator('option', { hasText: DEMO.accounts.team_member }).textContent()) ?? '';
  expect(option).toMatch(/^Lucas Martin – member1@example\.com \(TM-\d{4}\)$/);
  await person.selectOption({ label: option });
  await section.getByLabel('Start Date').fill(isoDay(5));
  await section.getByLabel('End Date').fill(isoDay(-5));
  await section.getByRole('button', { name: 'Generate Report' }).click();
  await expect(section.getByText('Start date must be on or before the end date.')).toBeVisible();

  // The whole history: member1 has one completed subtask of three (seed).
  await section.getByLabel('Start Date').fill('');
  await section.getByLabel('End Date').fill('');
  const request = page.waitForRequest((candidate) => candidate.url().includes('/api/appraisal-report/'));
  await section.getByRole('button', { name: 'Generate Report' }).click();
  expect(new URL((await request).url()).search).toMatch(/^\?user_id=\d+$/);
  await expect(section.getByRole('heading', { name: new RegExp(`^${DEMO_NAMES[DEMO.accounts.team_member]} \\(TM-\\d{4}\\)$`) })).toBeVisible();
  const chart = section.getByRole('figure');
  await expect(chart).toContainText('Completed: 1, Ongoing: 2, Pending Approval: 0');
  // Spec §9 colours: Completed green, Ongoing orange (empty bars draw nothing).
  await expect(section.locator('path.recharts-rectangle[fill="#16a34a"]')).toHaveCount(1);
  await expect(section.locator('path.recharts-rectangle[fill="#f97316"]')).toHaveCount(1);
  await expect(section.getByRole('progressbar', { name: 'Efficiency Score' })).toHaveAttribute('aria-valuenow', '33');
  await expect(section).toContainText('33%');

  // A range narrows it to what is due inside it.
  await section.getByLabel('Start Date').fill(isoDay(5));
  await section.getByRole('button', { name: 'Generate Report' }).click();
  await expect(chart).toContainText('Completed: 0, Ongoing: 1');
  await expect(section.getByRole('progressbar', { name: 'Efficiency Score' })).toHaveAttribute('aria-valuenow', '0');

  await section.getByLabel('Start Date').fill('');
  const download = page.waitForEvent('download');
  await section.getByRole('button', { name: 'Download PDF' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('appraisal_report.pdf');
  await expect(section.getByText('Appraisal report PDF generated successfully!')).toBeVisible();
  const bytes = await readFile(await file.path());
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const text = await pdfText(bytes);
  expect(text.normalize('NFKC')).toContain(`Appraisal report for ${DEMO_NAMES[DEMO.accounts.team_member]}`);
  expect(text).toContain(DEMO.accounts.team_member);
  expect(text).toContain('Excavate site');
});

test('a failed report or PDF shows the server’s reason', async ({ page }) => {
  await signIn(page, 'admin');
  const section = page.getByRole('region', { name: 'Appraisal Report' });
  await section.getByLabel('User').selectOption({ index: 1 });
  await page.route('**/api/appraisal-report/**', (route) => route.fulfill({ status: 404, json: { detail: 'User not found.' } }));
  await section.getByRole('button', { name: 'Generate Report' }).click();
  await expect(section.getByText('Failed to fetch appraisal report: User not found.')).toBeVisible();
  await page.route('**/api/generate-appraisal-pdf/**', (route) => route.fulfill({ status: 400, json: { detail: 'Start date must be a real calendar date.' } }));
  await section.getByRole('button', { name: 'Download PDF' }).click();
  await expect(section.getByText('Failed to generate appraisal report PDF: Start date must be a real calendar date.')).toBeVisible();
});
