import { expect, test, type BrowserContextOptions, type Page } from '../test';
import { assignWork, apiSignIn } from '../api-helpers';
import { expectNoSeriousViolations, DEMO, DEMO_NAMES, saveScreenshot, signIn, type Role } from '../fixtures';

/** Two small photos of the finished work, as a phone's camera roll would hand them over. */
const PHOTOS = [
  'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwCAIAAAAuKetIAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAfUlEQVR4nO2SAQkAURSDFseIF9FYF2M8/sAAOhY/TpO6gQugvqK7EHdJ3cAFUF/RXYi7pG7gAqiv6C7EXVI3cAHUV3QX4i6pG7gA6iu6C3GX1A1cAPUV3YW4S+oGLoD6iu5C3CV1AxdAfUV3Ie6SuoELoL6iuxB3Sd3AxwN+iaLg8ZTemOMAAAAASUVORK5CYII=',
  'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwCAIAAAAuKetIAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAfUlEQVR4nO2SAQkAURSDFsdMl9hYF2M8/sAAOhY+T5O6AQuwviK7kHdJ3YAFWF+RXci7pG7AAqyvyC7kXVI3YAHWV2QX8i6pG7AA6yuyC3mX1A1YgPUV2YW8S+oGLMD6iuxC3iV1AxZgfUV2Ie+SugELsL4iu5B3Sd2AxwN+SwR44rhshWYAAAAASUVORK5CYII=',
].map((base64, index) => ({ name: `footing-${index + 1}.png`, mimeType: 'image/png', buffer: Buffer.from(base64, 'base64') }));

async function signedInPage(newPage: (options: BrowserContextOptions) => Promise<Page>, role: Role, phone: boolean): Promise<Page> {
  const page = await newPage(phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : { viewport: { width: 1280, height: 800 } });
  await signIn(page, role);
  return page;
}

test('proof travels: the crew sends photos from a phone, the manager declines with a reason, then approves', async ({ newPage, request }) => {
  const title = `Pour footing B ${Date.now().toString(36)}`;
  const reason = 'Rebar spacing wrong at grid C';
  const managerApi = await apiSignIn(request, 'manager');
  const ids = await assignWork(managerApi, `Foundations ${title}`, [{ name: title, assignee: DEMO.accounts.team_member, dueInDays: 3, priority: 'high' }]);

  // The crew member, on a phone: two photos and a note, sent for approval from My Tasks.
  const member = await signedInPage(newPage, 'team_member', true);
  await member.getByRole('button', { name: 'Toggle sidebar' }).click();
  await member.getByRole('link', { name: 'My Tasks' }).click();
  // At phone width each subtask is a card in the list, not a table row.
  const memberRow = member.getByRole('list', { name: 'Assigned Tasks' }).getByRole('listitem').filter({ hasText: title });
  await memberRow.getByRole('button', { name: 'Send for Approval' }).click();
  const send = member.getByRole('dialog', { name: 'Send for approval' });
  await send.getByLabel('Add photos').setInputFiles(PHOTOS);
  await send.getByLabel('Note (optional)').fill('Poured 14:10, vibrated, covered.');
  await saveScreenshot(member, 'record-send-with-photos-phone');
  await expectNoSeriousViolations(member);
  await send.getByRole('button', { name: 'Send for Approval' }).click();
  await expect(member.getByText('Task sent for approval!')).toBeVisible();
  await expect(send).toBeHidden();

  // The manager sees both photos beside the pending row, looks at one, and declines with a reason.
  const manager = await signedInPage(newPage, 'manager', false);
  await manager.getByRole('button', { name: /^Pending Approvals/ }).click();
  const pending = manager.getByRole('row').filter({ hasText: title });
  await expect(pending.getByRole('button', { name: /^Open photo \d of 2: / })).toHaveCount(2);
  // Each thumbnail's button says which photo it is and of what, once: its image adds no second name.
  const second = pending.getByRole('button', { name: `Open photo 2 of 2: ${title}`, exact: true });
  await expect(second.locator('img')).toHaveAttribute('alt', '');
  await second.click();
  const viewer = manager.getByRole('dialog', { name: `Photo 2 of 2: ${title}` });
  // The photo itself (decorative to a screen reader: the dialog's title names it) has loaded.
  const photo = viewer.locator('img');
  await expect(photo).toBeVisible();
  await expect.poll(() => photo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  await saveScreenshot(manager, 'record-photo-viewer-desktop');
  await manager.keyboard.press('Escape');
  await pending.getByRole('button', { name: 'Decline Task' }).click();
  const decline = manager.getByRole('dialog', { name: 'Decline task' });
  await decline.getByRole('button', { name: 'Decline Task' }).click();
  await expect(decline.getByLabel('Reason')).toHaveAttribute('aria-invalid', 'true');
  await expectNoSeriousViolations(manager);
  await decline.getByLabel('Reason').fill(reason);
  await decline.getByRole('button', { name: 'Decline Task' }).click();
  await expect(manager.getByText('Task declined successfully!')).toBeVisible();

  // The member sees why beside the task, and the whole story in its timeline.
  await member.reload();
  await expect(memberRow.getByText(`Declined: ${reason}`)).toBeVisible();
  await memberRow.getByRole('link', { name: `Open ${title}` }).click();
  const drawer = member.getByRole('dialog', { name: title });
  const timeline = drawer.getByRole('list', { name: 'Timeline' });
  await expect(timeline.getByText(`${DEMO_NAMES[DEMO.accounts.manager]} declined it`)).toBeVisible();
  await expect(timeline.getByText(reason)).toBeVisible();
  await expect(timeline.getByText('Poured 14:10, vibrated, covered.')).toBeVisible();
  await expect(timeline.getByText(`${DEMO_NAMES[DEMO.accounts.team_member]} added a photo`)).toHaveCount(2);
  await saveScreenshot(member, 'record-timeline-phone');
  await expectNoSeriousViolations(member);
  await member.keyboard.press('Escape');

  // Fixed and sent again; this time the manager approves, and the timeline says so.
  await memberRow.getByRole('button', { name: 'Send for Approval' }).click();
  await send.getByLabel('Note (optional)').fill('Spacing corrected to 200 mm.');
  await send.getByRole('button', { name: 'Send for Approval' }).click();
  await expect(member.getByText('Task sent for approval!')).toBeVisible();

  await manager.reload();
  await manager.getByRole('button', { name: /^Pending Approvals/ }).click();
  await pending.getByRole('button', { name: 'Approve Task' }).click();
  await expect(manager.getByText('Task approved successfully!')).toBeVisible();
  await manager.goto(`${new URL(manager.url()).pathname}?subtask=${ids[title]}`);
  await expect(manager.getByRole('dialog', { name: title }).getByRole('list', { name: 'Timeline' }).getByText(`${DEMO_NAMES[DEMO.accounts.manager]} approved it`)).toBeVisible();
});
