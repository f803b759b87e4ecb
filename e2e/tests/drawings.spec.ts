import PDFDocument from 'pdfkit';
import { expect, test, type BrowserContextOptions, type Locator, type Page } from '../test';
import { apiSignIn, dayFromToday, findByName, userId, type ApiProject } from '../api-helpers';
import { cacheMentions, DEMO, demoLabel, expectNoSeriousViolations, saveScreenshot, signIn } from '../fixtures';

// The phone keeps the app and the tiles it saw in its service worker.
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, serviceWorkers: 'allow' };

/** A two-page plan set as a drawing office sends it: A3 landscape pages with a frame and a title. */
function twoPagePlanSet(): Promise<Buffer> {
  const document = new PDFDocument({ autoFirstPage: false });
  const chunks: Buffer[] = [];
  document.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => document.on('end', () => resolve(Buffer.concat(chunks))));
  for (const title of ['Ground floor', 'First floor']) {
    document.addPage({ size: [1191, 842], margin: 0 });
    document.rect(30, 30, 1131, 782).lineWidth(3).stroke();
    for (let x = 130; x < 1100; x += 160) document.moveTo(x, 30).lineTo(x, 812).lineWidth(0.5).stroke();
    document.fontSize(36).text(title, 60, 60);
  }
  document.end();
  return done;
}

/** The middle of what a locator draws, in the page's CSS pixels. */
async function centreOf(locator: Locator) {
  const box = (await locator.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/**
 * A finger resting on the page at a point until `done` is met (a long-press held for as long as
 * the screen takes to answer it, not for a fixed time), then lifted: Chromium's own touch input.
 */
async function holdFinger(page: Page, at: { x: number; y: number }, done: () => Promise<void>) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: at.x, y: at.y }] });
  try {
    await done();
  } finally {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await cdp.detach();
  }
}

test('a manager uploads a plan set and pins a new subtask on page 2; the crew opens it on a phone and sends the work; the pin changes colour; it opens offline', async ({ newPage, request }) => {
  // Three people, two renders and the keyboard's ways: over the default two minutes on a busy machine (seen at a load of 18 on 2 cores).
  test.setTimeout(180_000);
  const name = `Drawings ${Date.now().toString(36)}`;
  const admin = await apiSignIn(request, 'admin');
  const managerApi = await apiSignIn(request, 'manager');
  const project = await admin.post<ApiProject>('/api/projects/', {
    name,
    description: '',
    start_date: dayFromToday(-10),
    end_date: dayFromToday(60),
    manager_id: await userId(admin, DEMO.accounts.manager),
    status: 'ongoing',
  });
  const majorTask = await managerApi.post<{ subtasks: { id: number; name: string }[] }>('/api/major-tasks/', {
    project_id: project.id,
    name: 'First floor',
    description: '',
    subtasks: [{ name: `Frame window W3 ${name}`, assigned_to_id: await userId(managerApi, DEMO.accounts.team_member), due_date: dayFromToday(3), priority: 'high' }],
  });
  expect(findByName(majorTask.subtasks, `Frame window W3 ${name}`).id).toBeGreaterThan(0);

  // The manager, at a desk: uploads the plan set, waits for both pages, opens page 2 and makes a new subtask where they click.
  const manager = await newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(manager, 'manager');
  await manager.getByRole('link', { name: 'Drawings', exact: true }).click();
  await manager.getByLabel('Project').selectOption({ label: name });
  await manager.getByLabel('Upload drawing').setInputFiles({ name: 'House A.pdf', mimeType: 'application/pdf', buffer: await twoPagePlanSet() });
  const sheets = manager.getByRole('region', { name: 'Sheets' });
  await expect(sheets.getByRole('button', { name: 'House A – 2' })).toBeEnabled({ timeout: 60_000 });
  await expect(sheets.getByText('Ready')).toHaveCount(2);
  await saveScreenshot(manager, 'drawings-list-desktop');
  await expectNoSeriousViolations(manager);
  await sheets.getByRole('button', { name: 'House A – 2' }).click();
  await expect(manager.getByTestId('sheet-version')).toHaveText('Version 1');
  await manager.getByLabel('Pin a subtask').selectOption({ label: 'A new subtask here…' });
  const viewer = manager.getByTestId('sheet-viewer');
  await expect(viewer.locator('canvas')).toBeVisible();
  const box = (await viewer.boundingBox())!;
  await manager.mouse.click(box.x + box.width * 0.6, box.y + box.height * 0.5);
  const form = manager.getByRole('form', { name: 'New subtask at the tapped point' });
  await form.getByLabel('Title').fill(`Seal window W3 ${name}`);
  await form.getByLabel('Major task').selectOption({ label: 'First floor' });
  await form.getByLabel('Assign to').selectOption({ label: demoLabel(DEMO.accounts.team_member) });
  await form.getByLabel('Due date').fill(dayFromToday(3));
  await saveScreenshot(manager, 'drawings-new-subtask-desktop');
  await expectNoSeriousViolations(manager);
  await form.getByRole('button', { name: 'Create and pin' }).click();
  await expect(form).toBeHidden();
  const managerPin = viewer.getByRole('button', { name: `Seal window W3 ${name} (Ongoing)` });
  await expect(managerPin).toBeVisible();
  await saveScreenshot(manager, 'drawings-viewer-desktop');
  await expectNoSeriousViolations(manager);

  // The manager drags the pin to another place with the mouse: the server keeps it where it was dropped.
  const sheetId = Number(new URL(manager.url()).searchParams.get('sheet'));
  const pinsOf = () => managerApi.get<{ subtask_id: number; name: string; x: number; y: number }[]>(`/api/sheets/${sheetId}/pins/`);
  const placed = (await pinsOf()).find((pin) => pin.name === `Seal window W3 ${name}`)!;
  // The whole sheet is in view (nobody zoomed), in the middle of the viewer: a sheet unit is as many pixels as it is drawn wide or high.
  const { width, height } = await managerApi.get<{ width: number; height: number }>(`/api/sheets/${sheetId}/`);
  const dragBox = (await viewer.boundingBox())!;
  const drawnWidth = Math.min(dragBox.width, (dragBox.height * width) / height);
  const drawnHeight = (drawnWidth * height) / width;
  /** Where a point of the sheet is, from the viewer's corner (the page may move a little meanwhile). */
  const onSheet = (x: number, y: number) => ({ x: (dragBox.width - drawnWidth) / 2 + x * drawnWidth, y: (dragBox.height - drawnHeight) / 2 + y * drawnHeight });
  /** Where the pin's point (its sharp corner, the bottom of what it draws) is drawn, from the viewer's corner. */
  const drawnPoint = async () => {
    const [pin, now] = [await managerPin.boundingBox(), (await viewer.boundingBox())!];
    return pin ? { x: pin.x + pin.width / 2 - now.x, y: pin.y + pin.height - now.y } : { x: Infinity, y: Infinity };
  };
  const distance = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.hypot(a.x - b.x, a.y - b.y);
  // The pin's point is drawn on its place (it was 5 px above it until the viewer next redrew).
  expect(distance(await drawnPoint(), onSheet(placed.x, placed.y))).toBeLessThan(1.5);
  const from = await centreOf(managerPin);
  // Taken by its head: where the pointer holds it, from its point.
  const before = await drawnPoint();
  const held = { x: from.x - dragBox.x - before.x, y: from.y - dragBox.y - before.y };
  const to = { x: dragBox.x + dragBox.width * 0.35, y: dragBox.y + dragBox.height * 0.3 };
  await manager.mouse.move(from.x, from.y);
  await manager.mouse.down();
  await manager.mouse.move(to.x, to.y, { steps: 8 });
  await manager.mouse.up();
  const expected = { x: placed.x + (to.x - from.x) / drawnWidth, y: placed.y + (to.y - from.y) / drawnHeight };
  await expect
    .poll(async () => {
      const pin = (await pinsOf()).find((candidate) => candidate.subtask_id === placed.subtask_id)!;
      return Math.max(Math.abs(pin.x - expected.x) * drawnWidth, Math.abs(pin.y - expected.y) * drawnHeight);
    })
    .toBeLessThan(1.5);
  // Drawn from the server's answer, its point is where the mouse let go of it: the release point, less where the pointer held it.
  const released = { x: to.x - dragBox.x - held.x, y: to.y - dragBox.y - held.y };
  await expect.poll(async () => distance(await drawnPoint(), released)).toBeLessThan(1.5);
  // The pins are drawn again when the move has synced and they are read again: between two drawings there is none for a moment (seen in CI).
  await expect.poll(async () => distance(await drawnPoint(), onSheet(expected.x, expected.y))).toBeLessThan(1.5);

  // A click on the pin opens its drawer.
  await managerPin.click();
  const managerDrawer = manager.getByRole('dialog', { name: `Seal window W3 ${name}` });
  await expect(managerDrawer.getByText(name, { exact: true })).toBeVisible();
  await expectNoSeriousViolations(manager);
  await manager.keyboard.press('Escape');
  await expect(managerDrawer).toBeHidden();

  // The keyboard alone. Enter on the pin opens the same drawer, which gives the keyboard back to the pin.
  await managerPin.focus();
  await manager.keyboard.press('Enter');
  await expect(managerDrawer.getByText(name, { exact: true })).toBeVisible();
  await manager.keyboard.press('Escape');
  await expect(managerDrawer).toBeHidden();
  await expect(managerPin).toBeFocused();
  // What its keys do is shown below the sheet while it has the keyboard, not only said to a screen reader.
  await expect(manager.getByText('Enter opens it; the arrow keys move it.').filter({ visible: true })).toBeVisible();
  // The arrow keys move it (8 px a press, 48 with Shift) and Enter puts it down; the server keeps it there.
  const keyed = (await pinsOf()).find((pin) => pin.subtask_id === placed.subtask_id)!;
  await manager.keyboard.press('Shift+ArrowDown');
  await manager.keyboard.press('ArrowLeft');
  await expect(manager.getByText(`Moving Seal window W3 ${name}: the arrow keys move it (Shift: further), Enter puts it here, Escape puts it back.`)).toBeVisible();
  await saveScreenshot(manager, 'drawings-keyboard-move-desktop');
  await manager.keyboard.press('Enter');
  const keyedTo = { x: keyed.x - 8 / drawnWidth, y: keyed.y + 48 / drawnHeight };
  await expect
    .poll(async () => {
      const pin = (await pinsOf()).find((candidate) => candidate.subtask_id === placed.subtask_id)!;
      return Math.max(Math.abs(pin.x - keyedTo.x) * drawnWidth, Math.abs(pin.y - keyedTo.y) * drawnHeight);
    })
    .toBeLessThan(1.5);
  await expect.poll(async () => distance(await drawnPoint(), onSheet(keyedTo.x, keyedTo.y))).toBeLessThan(1.5);
  await expect(managerPin).toBeFocused();

  // Placing without a pointer: "Place on sheet" hands the keyboard to a marker in the middle of the sheet; Enter pins the subtask there.
  await manager
    .getByRole('region', { name: 'Not on a sheet yet' })
    .getByRole('listitem')
    .filter({ hasText: `Frame window W3 ${name}` })
    .getByRole('button', { name: 'Place on sheet' })
    .press('Enter');
  const marker = viewer.getByTestId('pin-marker');
  await expect(marker).toBeFocused();
  await manager.keyboard.press('Shift+ArrowUp');
  await manager.keyboard.press('Shift+ArrowRight');
  await expect(marker).toHaveAccessibleName(`Place Frame window W3 ${name} here, ${Math.round((0.5 + 48 / drawnWidth) * 100)}% across, ${Math.round((0.5 - 48 / drawnHeight) * 100)}% down`);
  await saveScreenshot(manager, 'drawings-keyboard-place-desktop');
  await expectNoSeriousViolations(manager);
  await manager.keyboard.press('Enter');
  await expect(viewer.getByRole('button', { name: `Frame window W3 ${name} (Ongoing)` })).toBeFocused();
  await expect
    .poll(async () => (await pinsOf()).find((pin) => pin.name === `Frame window W3 ${name}`))
    .toMatchObject({ x: expect.closeTo(0.5 + 48 / drawnWidth, 2), y: expect.closeTo(0.5 - 48 / drawnHeight, 2) });

  // Work planned since, on no sheet yet: more rows than the desk's column shows at once.
  const crewId = await userId(managerApi, DEMO.accounts.team_member);
  await managerApi.post('/api/major-tasks/', {
    project_id: project.id,
    name: 'Second floor',
    description: '',
    subtasks: Array.from({ length: 6 }, (_, index) => ({ name: `Screed room ${index + 1} ${name}`, assigned_to_id: crewId, due_date: dayFromToday(8), priority: 'medium' })),
  });

  // On a phone, the manager long-presses the sheet: the new-subtask form opens for that point.
  const managerPhone = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await signIn(managerPhone, 'manager');
  await managerPhone.goto(manager.url());
  const phoneViewer = managerPhone.getByTestId('sheet-viewer');
  await expect(phoneViewer.getByRole('button', { name: `Seal window W3 ${name} (Ongoing)` })).toBeVisible();
  // The subtasks on no sheet are part of the page on a phone, not a box scrolling inside it that cut its last row mid-line.
  const unpinned = managerPhone.getByRole('region', { name: 'Not on a sheet yet' }).getByRole('list');
  await expect(unpinned.getByRole('listitem').first()).toBeVisible();
  expect(await unpinned.evaluate((list) => list.scrollHeight - list.clientHeight)).toBe(0);
  await unpinned.getByRole('listitem').last().scrollIntoViewIfNeeded();
  await saveScreenshot(managerPhone, 'drawings-unpinned-phone');
  await phoneViewer.scrollIntoViewIfNeeded();
  const phoneForm = managerPhone.getByRole('form', { name: 'New subtask at the tapped point' });
  const pressed = await centreOf(phoneViewer);
  await holdFinger(managerPhone, pressed, () => expect(phoneForm).toBeVisible());
  await phoneForm.getByLabel('Title').fill(`Sill W4 ${name}`);
  await phoneForm.getByLabel('Major task').selectOption({ label: 'First floor' });
  await phoneForm.getByLabel('Assign to').selectOption({ label: demoLabel(DEMO.accounts.team_member) });
  await phoneForm.getByLabel('Due date').fill(dayFromToday(5));
  await phoneForm.getByRole('button', { name: 'Create and pin' }).click();
  // The new pin stands where the finger pressed, the sheet's middle: its point is drawn on that spot.
  await expect.poll(async () => (await pinsOf()).find((pin) => pin.name === `Sill W4 ${name}`)).toMatchObject({ x: expect.closeTo(0.5, 1), y: expect.closeTo(0.5, 1) });
  const newPin = phoneViewer.getByRole('button', { name: `Sill W4 ${name} (Ongoing)` });
  await expect
    .poll(async () => {
      // Measured from the viewer's corner: the form scrolled the page meanwhile.
      const [drawn, sheetBox] = [await newPin.boundingBox(), (await phoneViewer.boundingBox())!];
      return drawn ? Math.hypot(drawn.x + drawn.width / 2 - sheetBox.x - sheetBox.width / 2, drawn.y + drawn.height - sheetBox.y - sheetBox.height / 2) : Infinity;
    })
    .toBeLessThan(3);

  // The sheet's pins as a list on the phone too, each opening its subtask or showing it on the sheet.
  await managerPhone.getByRole('button', { name: '3 pins on this sheet' }).click();
  await expect(managerPhone.getByRole('listitem').filter({ hasText: `Sill W4 ${name}` }).getByRole('button', { name: 'Show on sheet' })).toBeVisible();
  await saveScreenshot(managerPhone, 'drawings-pin-list-phone');
  await expectNoSeriousViolations(managerPhone);

  // The crew member, on a phone: opens the sheet, zooms in, taps the pin and sends the work for approval.
  const member = await newPage(PHONE);
  await signIn(member, 'team_member');
  await member.getByRole('button', { name: 'Toggle sidebar' }).click();
  await member.getByRole('link', { name: 'Drawings', exact: true }).click();
  await member.getByLabel('Project').selectOption({ label: name });
  await expect(member.getByRole('region', { name: 'Sheets' }).getByText('Ready')).toHaveCount(2);
  await expectNoSeriousViolations(member);
  await member.getByRole('button', { name: 'House A – 2' }).click();
  await member.getByRole('button', { name: 'Zoom in' }).click();
  await member.getByRole('button', { name: 'Zoom in' }).click();
  const memberPin = member.getByTestId('sheet-viewer').getByRole('button', { name: `Seal window W3 ${name} (Ongoing)` });
  await saveScreenshot(member, 'drawings-viewer-phone');
  await expectNoSeriousViolations(member);
  await memberPin.tap();
  const drawer = member.getByRole('dialog').filter({ hasText: `Seal window W3 ${name}` });
  await expect(drawer.getByRole('button', { name: 'Send for Approval' })).toBeVisible();
  await expectNoSeriousViolations(member);
  await drawer.getByRole('button', { name: 'Send for Approval' }).click();
  const send = member.getByRole('dialog', { name: 'Send for approval' });
  await send.getByLabel('Add photos').setInputFiles({ name: 'w3.png', mimeType: 'image/png', buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64') });
  await send.getByRole('button', { name: 'Send for Approval' }).click();
  await expect(member.getByText('Task sent for approval!')).toBeVisible();

  // The manager's sheet shows the pin waiting for approval.
  await expect(viewer.getByRole('button', { name: `Seal window W3 ${name} (Pending Approval)` })).toBeVisible({ timeout: 30_000 });

  // The phone opens the sheet once more with its service worker in charge, then without a signal: the
  // sheet, its pin and the tiles it saw are still there.
  await member.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  const sheetUrl = new URL(member.url());
  sheetUrl.searchParams.delete('subtask');
  await member.goto(sheetUrl.toString());
  await expect(member.getByTestId('sheet-viewer').getByRole('button', { name: `Seal window W3 ${name} (Pending Approval)` })).toBeVisible();
  await expect.poll(() => member.evaluate(async () => (await (await caches.open('sheet-tiles')).keys()).length), { timeout: 30_000 }).toBeGreaterThan(0);
  // The pins as they are now, kept for the next start without a signal.
  await expect.poll(() => member.evaluate(cacheMentions, `"status":"pending_approval","name":"Seal window W3 ${name}"`)).toBe(true);
  await member.context().setOffline(true);
  await member.reload();
  await expect(member.getByTestId('offline-banner')).toBeVisible();
  const offlinePin = member.getByTestId('sheet-viewer').getByRole('button', { name: `Seal window W3 ${name} (Pending Approval)` });
  await expect(offlinePin).toBeVisible();
  // Its lines drawn from the cached tiles: dark pixels on the white sheet.
  await expect
    .poll(() =>
      member.evaluate(() => {
        const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="sheet-viewer"] canvas')!;
        const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
        let dark = 0;
        for (let index = 0; index < data.length; index += 4) if (data[index]! < 100 && data[index + 3]! > 0) dark++;
        return dark;
      }),
    )
    .toBeGreaterThan(100);
  await saveScreenshot(member, 'drawings-viewer-phone-offline');
  await member.context().setOffline(false);
});
