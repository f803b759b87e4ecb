import { readFile } from 'node:fs/promises';
import { expect, test } from '../test';
import { parse } from 'csv-parse/sync';
import ICAL from 'ical.js';
import { pageSession } from '../api-helpers';
import { saveScreenshot, signIn } from '../fixtures';

interface ListedSubtask {
  id: number;
  status: string;
  due_date: string | null;
  major_task: { project: { status: string } };
}

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

test('a manager subscribes to their calendar feed and downloads their pending approvals as CSV', async ({ page }) => {
  await signIn(page, 'manager');
  const api = await pageSession(page);

  // Turn the feed on, with the approvals waiting for the manager, and read its address.
  await page.getByRole('button', { name: 'Calendar feed' }).click();
  const dialog = page.getByRole('dialog', { name: 'Calendar feed' });
  await expect(dialog.getByText('Your calendar feed is off.')).toBeVisible();
  await dialog.getByLabel('Also show the tasks waiting for my approval').check();
  await dialog.getByRole('button', { name: 'Turn on calendar feed' }).click();
  const address = dialog.getByLabel('Feed address');
  await expect(address).toHaveValue(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  await saveScreenshot(page, 'calendar-feed-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await saveScreenshot(page, 'calendar-feed-phone');
  await page.setViewportSize({ width: 1280, height: 800 });

  // What a calendar app downloads, with no credential but the address: the manager's open work
  // with a due date (outside completed projects) and the approvals waiting for them.
  const feed = await page.request.get(await address.inputValue());
  expect(feed.ok()).toBeTruthy();
  const events = new ICAL.Component(ICAL.parse(await feed.text())).getAllSubcomponents('vevent').map((event) => new ICAL.Event(event));
  const isOpen = (subtask: ListedSubtask) => subtask.status !== 'completed' && subtask.due_date !== null && subtask.major_task.project.status !== 'completed';
  const mine = (await api.get<ListedSubtask[]>('/api/subtasks/?assigned_to=me')).filter(isOpen);
  const approvals = (await api.get<ListedSubtask[]>('/api/pending-approvals/')).filter(isOpen);
  expect(sorted(events.map((event) => Number(/^subtask-(\d+)@siteboard$/.exec(event.uid)![1])))).toEqual(sorted([...new Set([...mine, ...approvals].map((subtask) => subtask.id))]));
  for (const event of events) expect(event.startDate.isDate).toBe(true);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Download the pending approvals as CSV and read them back: every row of the list, not only a page.
  await page.getByRole('link', { name: 'My Tasks' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV: Pending Approvals' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^siteboard-pending-approvals-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await readFile((await file.path())!, 'utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const [header, ...rows] = parse(text, { bom: true }) as string[][];
  expect(header!.slice(0, 4)).toEqual(['ID', 'Project', 'Major Task', 'Subtask Title']);
  const pending = await api.get<ListedSubtask[]>('/api/pending-approvals/');
  expect(pending.length).toBeGreaterThan(0);
  expect(sorted(rows.map((row) => Number(row[0])))).toEqual(sorted(pending.map((subtask) => subtask.id)));
  await saveScreenshot(page, 'my-tasks-csv-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await saveScreenshot(page, 'my-tasks-csv-phone');
});
