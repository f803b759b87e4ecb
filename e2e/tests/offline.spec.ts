import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '../test';
import { assignWork, apiSignIn, userId, type ApiSubtask } from '../api-helpers';
import { cacheMentions, DEMO, saveScreenshot, signIn } from '../fixtures';

// The journeys block service workers (playwright.config.ts); these are about it.
test.use({ serviceWorkers: 'allow' });

/** A photo as small as a PNG gets: the server re-encodes whatever it is sent. */
const PHOTO = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** A team member's My Tasks row of this task, once the service worker keeps the app's code (the send dialog loads when first opened). */
async function myTaskRowWithTheAppKept(page: Page, title: string) {
  await signIn(page, 'team_member');
  await page.getByRole('link', { name: 'My Tasks' }).click();
  const row = page.getByRole('row').filter({ hasText: title });
  await expect(row).toBeVisible();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  return row;
}

test('a team member without a signal sees their tasks, sends one with a photo, and it reaches the manager once', async ({ page, context, request }) => {
  const stamp = Date.now().toString(36);
  const title = `Seal the tunnel joint ${stamp}`;
  const gone = `Grout the tunnel ring ${stamp}`;
  // The manager's calls go on their own connection: the phone's context is offline for a while.
  const managerApi = await apiSignIn(request, 'manager');
  const ids = await assignWork(managerApi, `Offline ${stamp}`, [title, gone].map((name) => ({ name, assignee: 'member1@example.com', dueInDays: 2, priority: 'high' as const })));
  const subtaskId = ids[title]!;

  // One visit online: the service worker keeps the app, IndexedDB the answers.
  const row = await myTaskRowWithTheAppKept(page, title);
  await expect.poll(() => page.evaluate(cacheMentions, title)).toBe(true);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('offline-banner')).toContainText(/^Offline — last updated \d{2}:\d{2}$/);
  await expect(row).toBeVisible();

  await row.getByRole('button', { name: 'Send for Approval' }).click();
  const send = page.getByRole('dialog', { name: 'Send for approval' });
  await send.getByLabel('Add photos').setInputFiles({ name: 'joint.png', mimeType: 'image/png', buffer: PHOTO });
  await send.getByLabel('Note (optional)').fill('Sealed, photo attached');
  await send.getByRole('button', { name: 'Send for Approval' }).click();
  await expect(send).toBeHidden();
  // The photo and the send are one thing done: counted once, the row marked.
  await expect(page.getByTestId('sync-status')).toHaveText('Waiting to sync (1)');
  await expect(row.getByText('Waiting to sync')).toBeVisible();
  // A second send, of a subtask the manager gives to someone else before the phone is back online.
  await page.getByRole('row').filter({ hasText: gone }).getByRole('button', { name: 'Send for Approval' }).click();
  await send.getByRole('button', { name: 'Send for Approval' }).click();
  await expect(send).toBeHidden();
  await expect(page.getByTestId('sync-status')).toHaveText('Waiting to sync (2)');

  // Closed and opened again without a signal: the photo and both sends still wait.
  await page.reload();
  await expect(page.getByTestId('offline-banner')).toBeVisible();
  await expect(page.getByTestId('sync-status')).toHaveText('Waiting to sync (2)');
  await managerApi.patch(`/api/subtasks/${ids[gone]}/`, { assigned_to_id: await userId(managerApi, 'member2@example.com') });

  // Back online: the first send goes through; the refused one stays, with the server's reason, until discarded.
  // The list is read again only after the send: read before it, it showed the task as not sent, with its button.
  const afterOnline: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'GET' && new URL(sent.url()).pathname === '/api/subtasks/') afterOnline.push('list read');
  });
  page.on('response', (answer) => {
    if (answer.request().method() === 'PATCH' && new URL(answer.url()).pathname === `/api/subtasks/${subtaskId}/`) afterOnline.push('sent');
  });
  await context.setOffline(false);
  await expect(page.getByTestId('sync-status')).toHaveText('Refused (1)');
  await expect(row.getByText('Pending Approval')).toBeVisible();
  expect(afterOnline).toContain('sent');
  expect(afterOnline.slice(0, afterOnline.indexOf('sent'))).not.toContain('list read');
  await page.getByTestId('sync-status').click();
  const queue = page.getByRole('dialog', { name: 'Changes made on this device' });
  await expect(queue.getByText(/^Refused: /)).toHaveText('Refused: You may only change subtasks assigned to you, or those of projects you manage or that you assigned.');
  await queue.getByRole('button', { name: 'Discard' }).click();
  await page.getByRole('alertdialog', { name: 'Discard this change?' }).getByRole('button', { name: 'Discard' }).click();
  await expect(page.getByTestId('sync-status')).toHaveCount(0);

  const pending = await managerApi.get<ApiSubtask[]>('/api/pending-approvals/?limit=100');
  expect(pending.filter((subtask) => subtask.id === subtaskId)).toHaveLength(1);
  const photos = await managerApi.get<{ subtask_id: number }[]>(`/api/attachments/?subtask_ids=${subtaskId}`);
  expect(photos).toHaveLength(1);
});

test('a comment written without a signal shows when it was written, and when it synced', async ({ page, context, request }) => {
  const title = `Pump out the sump ${Date.now().toString(36)}`;
  const managerApi = await apiSignIn(request, 'manager');
  const ids = await assignWork(managerApi, `Basement ${title}`, [{ name: title, assignee: 'member1@example.com', dueInDays: 2, priority: 'high' as const }]);
  // The phone's clock: two hours before the server's now, so that the two hours the crew then
  // spends below ground pass on the phone (fastForward) and the comment reaches the server two
  // hours after it was written, without the journey waiting them out.
  const hours = 2 * 60 * 60 * 1000;
  await page.clock.install({ time: Date.now() - hours });
  const row = await myTaskRowWithTheAppKept(page, title);
  await row.getByRole('link', { name: `Open ${title}` }).click();
  const drawer = page.getByRole('dialog', { name: title });
  const timeline = drawer.getByRole('list', { name: 'Timeline' });
  await expect(timeline).toBeVisible();

  await context.setOffline(true);
  await expect(page.getByTestId('offline-banner')).toBeVisible();
  await drawer.getByLabel('Add a comment').fill('Pumped down to 20 cm, cable tray dry');
  await drawer.getByRole('button', { name: 'Comment' }).click();
  await expect(drawer.getByRole('list', { name: 'Waiting to sync (1)' })).toContainText('Pumped down to 20 cm');
  await page.clock.fastForward('02:00:00');

  await context.setOffline(false);
  await expect(drawer.getByRole('list', { name: 'Waiting to sync (1)' })).toHaveCount(0);
  const entry = timeline.getByRole('listitem').filter({ hasText: 'Pumped down to 20 cm, cable tray dry' });
  // Its day too when the two hours spanned midnight (a run just after it).
  await expect(entry).toContainText(/ · synced (?:[A-Z][a-z]{2} \d{1,2}, \d{4}, )?\d{1,2}:\d{2}/);
  const [written, synced] = await entry.locator('time').evaluateAll((times) => times.map((time) => Date.parse(time.getAttribute('datetime')!)));
  expect(synced! - written!).toBeGreaterThan(hours - 60_000);
  const [comment] = (await managerApi.get<{ type: string; done_at: string; created_at: string }[]>(`/api/subtasks/${ids[title]}/activity/`)).filter((line) => line.type === 'comment');
  expect([Date.parse(comment!.done_at), Date.parse(comment!.created_at)]).toEqual([written, synced]);
  await saveScreenshot(page, 'offline-comment-synced');
});

test('a send that gets no answer on the way back still shows as sent, and goes again on its own', async ({ page, context, request }) => {
  const title = `Anchor the scaffold ${Date.now().toString(36)}`;
  const managerApi = await apiSignIn(request, 'manager');
  const ids = await assignWork(managerApi, `Weak signal ${title}`, [{ name: title, assignee: 'member1@example.com', dueInDays: 2, priority: 'high' as const }]);
  const subtaskId = ids[title]!;
  const row = await myTaskRowWithTheAppKept(page, title);

  await context.setOffline(true);
  await expect(page.getByTestId('offline-banner')).toBeVisible();
  await row.getByRole('button', { name: 'Send for Approval' }).click();
  await page.getByRole('dialog', { name: 'Send for approval' }).getByRole('button', { name: 'Send for Approval' }).click();
  await expect(page.getByTestId('sync-status')).toHaveText('Waiting to sync (1)');

  // Back online, the first try of the send is cut off on the way (a weak signal): no answer.
  let cutOff = false;
  let onTheWay!: () => void;
  const sending = new Promise<void>((resolve) => (onTheWay = resolve));
  let letItFail!: () => void;
  const checked = new Promise<void>((resolve) => (letItFail = resolve));
  await page.route(`**/api/subtasks/${subtaskId}/`, async (route) => {
    if (route.request().method() !== 'PATCH' || cutOff) return route.continue();
    cutOff = true;
    onTheWay();
    await checked;
    return route.abort('connectionreset');
  });
  const listRead = page.waitForResponse((answer) => answer.request().method() === 'GET' && new URL(answer.url()).pathname === '/api/subtasks/');
  await context.setOffline(false);
  // While the send is on its way the device is online: no "Offline" banner, the change still waiting.
  await sending;
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
  await expect(page.getByTestId('sync-status')).toHaveText('Waiting to sync (1)');
  letItFail();
  await listRead;
  // The list read came back with the task as the server has it (ongoing): the row still shows it sent, waiting.
  expect(cutOff).toBe(true);
  await expect(row).toContainText('Pending Approval');
  await expect(row.getByText('Waiting to sync')).toBeVisible();
  await expect(row.getByRole('button', { name: 'Send for Approval' })).toHaveCount(0);

  // No "online" event comes again: the queue sends it again on its own, once.
  await expect(page.getByTestId('sync-status')).toHaveCount(0);
  const pending = await managerApi.get<ApiSubtask[]>('/api/pending-approvals/?limit=100');
  expect(pending.filter((subtask) => subtask.id === subtaskId)).toHaveLength(1);
  await expect(row).toContainText('Pending Approval');
});

test('the app is installable: Chromium finds nothing that stops Add to Home Screen', async ({ playwright, baseURL }, testInfo) => {
  // The check Lighthouse's installability audit ran (Page.getInstallabilityErrors). Chromium refuses
  // to install from an incognito profile, as every test context is, so this one has a profile on disk.
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-install-'));
  const context = await playwright.chromium.launchPersistentContext(profile, { ...testInfo.project.use.launchOptions, baseURL, viewport: { width: 390, height: 844 } });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await signIn(page, 'team_member');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const cdp = await context.newCDPSession(page);
    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.url).toMatch(/\/manifest\.webmanifest$/);
    expect(manifest.errors).toEqual([]);
    expect((await cdp.send('Page.getInstallabilityErrors')).installabilityErrors).toEqual([]);
    // Every icon the manifest names is there.
    const { icons } = JSON.parse(manifest.data ?? '{}') as { icons: { src: string }[] };
    expect(icons.length).toBeGreaterThan(0);
    for (const icon of icons) expect((await page.request.get(icon.src)).status(), icon.src).toBe(200);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});

test('on a weak signal a dashboard opened again downloads only what changed', async ({ page, request }) => {
  // A member of their own, so that no other journey's work changes their dashboard meanwhile.
  const stamp = Date.now().toString(36);
  const email = `signal.${stamp}@example.com`;
  const admin = await apiSignIn(request, 'admin');
  await admin.post('/api/users/', { email, password: DEMO.password, role: 'team_member', manager_id: await userId(admin, DEMO.accounts.manager), full_name: 'Noor Haddad' });
  const manager = await apiSignIn(request, 'manager');
  await assignWork(manager, `Anchors ${stamp}`, [{ name: `Drill the anchors ${stamp}`, assignee: email, dueInDays: 5 }]);

  await signIn(page, 'team_member', email);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  const myTasks = page.getByRole('button', { name: /^My Tasks \d+$/ });
  await expect(myTasks).toHaveAccessibleName('My Tasks 1');

  /**
   * Opens the dashboard again, from a blank page (no earlier page's live refresh asks meanwhile):
   * whether its counts were asked with the kept answer's tag, and the bytes of answer that came.
   */
  const reopen = async () => {
    if (page.url() !== 'about:blank') await page.goto('about:blank');
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/dashboard-summary/');
    await page.goto('/team-member');
    const asked = (await answered).request();
    return { revalidated: Boolean(await asked.headerValue('if-none-match')), bytes: (await asked.sizes()).responseBodySize };
  };
  // Nothing changed: the browser sends the tag it kept, the server answers 304, no answer is downloaded, the screen draws the kept one.
  expect(await reopen()).toEqual({ revalidated: true, bytes: 0 });
  await expect(myTasks).toHaveAccessibleName('My Tasks 1');

  // The member away from the app (no live refresh), the manager assigns more.
  await page.goto('about:blank');
  await assignWork(manager, `Anchors ${stamp} 2`, [{ name: `Test the anchors ${stamp}`, assignee: email, dueInDays: 5 }]);
  const changed = await reopen();
  expect(changed.revalidated).toBe(true);
  expect(changed.bytes).toBeGreaterThan(0);
  await expect(myTasks).toHaveAccessibleName('My Tasks 2');
});
