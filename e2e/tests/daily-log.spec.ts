import fs from 'node:fs';
import { expect, test, type BrowserContextOptions, type Page } from '../test';
import { apiSignIn, dayFromToday, findByName, userId, type ApiProject, type ApiSession } from '../api-helpers';
import { DEMO, DEMO_NAMES, expectNoSeriousViolations, saveScreenshot, signIn, type Role } from '../fixtures';

/** A small photo of the day, as a phone's camera roll hands it over. */
const PHOTO = {
  name: 'slab.png',
  mimeType: 'image/png',
  buffer: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwCAIAAAAuKetIAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAfUlEQVR4nO2SAQkAURSDFseIF9FYF2M8/sAAOhY/TpO6gQugvqK7EHdJ3cAFUF/RXYi7pG7gAqiv6C7EXVI3cAHUV3QX4i6pG7gA6iu6C3GX1A1cAPUV3YW4S+oGLoD6iu5C3CV1AxdAfUV3Ie6SuoELoL6iuxB3Sd3AxwN+iaLg8ZTemOMAAAAASUVORK5CYII=',
    'base64',
  ),
};

const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** A project of its own (a retried journey starts from a fresh one), run by the demo's manager, with work for two of its crew. */
async function projectWithCrew(admin: ApiSession, manager: ApiSession, name: string) {
  const project = await admin.post<ApiProject>('/api/projects/', {
    name,
    description: '',
    start_date: dayFromToday(-30),
    end_date: dayFromToday(60),
    manager_id: await userId(admin, DEMO.accounts.manager),
    status: 'ongoing',
  });
  const majorTask = await manager.post<{ subtasks: { id: number; name: string }[] }>('/api/major-tasks/', {
    project_id: project.id,
    name: 'Slab 3',
    description: '',
    subtasks: [
      { name: `Fix slab 3 rebar ${name}`, assigned_to_id: await userId(manager, DEMO.accounts.team_member), due_date: dayFromToday(2), priority: 'high' },
      { name: `Strip slab 2 formwork ${name}`, assigned_to_id: await userId(manager, 'member2@example.com'), due_date: dayFromToday(2), priority: 'medium' },
    ],
  });
  return { project, rebar: findByName(majorTask.subtasks, `Fix slab 3 rebar ${name}`) };
}

async function openDailyLog(page: Page, role: Role, email: string, projectName: string, phone: boolean) {
  await signIn(page, role, email);
  if (phone) await page.getByRole('button', { name: 'Toggle sidebar' }).click();
  await page.getByRole('link', { name: 'Daily Log', exact: true }).click();
  await page.getByLabel('Project').selectOption({ label: projectName });
  await expect(page.getByTestId('log-status')).toContainText('not signed yet');
}

test('two crew phones (one offline) add to the day, the manager fills it in and signs, an amendment sits beside it, the PDF downloads', async ({ newPage, request }) => {
  const name = `Daily log ${Date.now().toString(36)}`;
  const admin = await apiSignIn(request, 'admin');
  const managerApi = await apiSignIn(request, 'manager');
  const { project, rebar } = await projectWithCrew(admin, managerApi, name);
  // The record of work: sent for approval today, so it is in the day's work.
  const memberApi = await apiSignIn(request, 'team_member');
  await memberApi.patch(`/api/subtasks/${rebar.id}/`, { status: 'pending_approval', comment: 'Rebar tied, ready for inspection' });

  // The first crew member, on a phone with a signal: hours, a note and a photo.
  const first = await newPage(PHONE);
  await openDailyLog(first, 'team_member', DEMO.accounts.team_member, name, true);
  await first.getByLabel('Hours worked').fill('8');
  await first.getByLabel('Note', { exact: true }).fill('Tied rebar on slab 3, grid C to F');
  await first.getByRole('button', { name: 'Add to the log' }).click();
  await expect(first.getByText('Added to the daily log.')).toBeVisible();
  await first.getByLabel('Add photos').setInputFiles(PHOTO);
  await expect(first.getByRole('button', { name: /^Open photo 1 of 1: the daily log of / }).first()).toBeVisible();
  await expectNoSeriousViolations(first);
  await saveScreenshot(first, 'daily-log-crew-phone');

  // The second, in the basement: the page is open, then the signal goes; the entry and photo wait on the phone.
  const second = await newPage(PHONE);
  await openDailyLog(second, 'team_member', 'member2@example.com', name, true);
  await second.context().setOffline(true);
  await second.getByLabel('Hours worked').fill('6.5');
  await second.getByLabel('Note', { exact: true }).fill('Stripped formwork on slab 2');
  await second.getByRole('button', { name: 'Add to the log' }).click();
  await expect(second.getByText('Saved on this device: it goes to the log as soon as the connection is back.')).toBeVisible();
  await second.getByLabel('Add photos').setInputFiles(PHOTO);
  await expect(second.getByTestId('sync-status')).toHaveText('Waiting to sync (2)');
  // The photo shows on the phone as it waits, so nobody takes it again.
  await expect(second.getByRole('img', { name: /^Photo 1, waiting to sync: the daily log of / })).toBeVisible();
  await second.context().setOffline(false);
  await expect(second.getByTestId('sync-status')).toHaveCount(0);
  // Sent: the entry is in the log's list, and the phone no longer says it waits.
  await expect(second.getByRole('list', { name: 'Crew hours and notes' }).getByText('Stripped formwork on slab 2')).toBeVisible();
  await expect(second.getByText('Saved on this device: it goes to the log as soon as the connection is back.')).toHaveCount(0);
  await expect(second.getByRole('img', { name: /^Photo 1, waiting to sync: the daily log of / })).toHaveCount(0);

  // The manager, at a desk: both crews' hours and photos and the day's work are there; weather and a delay, then sign.
  const manager = await newPage({ viewport: { width: 1280, height: 800 } });
  await openDailyLog(manager, 'manager', DEMO.accounts.manager, name, false);
  const entries = manager.getByRole('list', { name: 'Crew hours and notes' });
  await expect(entries.getByText('Tied rebar on slab 3, grid C to F')).toBeVisible();
  await expect(entries.getByText('Stripped formwork on slab 2')).toBeVisible();
  await expect(manager.getByTestId('log-status')).toContainText('On site: 2 people · 14.5 man-hours');
  await expect(manager.getByRole('button', { name: /^Open photo/ })).toHaveCount(2);
  const work = manager.getByRole('list', { name: "The day's work" });
  await expect(work.getByText(rebar.name, { exact: true })).toBeVisible();
  await expect(work.getByText('Rebar tied, ready for inspection')).toBeVisible();
  await manager.getByLabel('Conditions').fill('Rain from 13:00');
  await manager.getByLabel('Temperature (°C)').fill('11');
  await manager.getByLabel('The weather stopped work').check();
  await manager.getByRole('button', { name: 'Add delay' }).click();
  await manager.getByLabel('Cause').fill('Rain stopped the pour');
  await manager.getByLabel('Hours lost').fill('2');
  await expectNoSeriousViolations(manager);
  await manager.getByRole('button', { name: 'Sign log' }).click();
  await manager.getByRole('alertdialog', { name: 'Sign the daily log' }).getByRole('button', { name: 'Sign' }).click();
  await expect(manager.getByTestId('log-status')).toContainText(`Signed by ${DEMO_NAMES[DEMO.accounts.manager]}`);
  const delays = manager.getByRole('table', { name: 'Delays' });
  await expect(delays).toContainText('Rain stopped the pour2');
  await expectNoSeriousViolations(manager);

  // Later: the pour was stopped longer. The signed log stays; the amendment stands beside it.
  const beside = manager.getByRole('complementary', { name: 'Amendments and downloads' });
  await beside.getByLabel('Reason').fill('The pour was stopped 3 hours, not 2');
  await beside.getByLabel('What changed').fill('Delay "Rain stopped the pour": 3 hours lost');
  await beside.getByRole('button', { name: 'Add amendment' }).click();
  await expect(beside.getByRole('list', { name: 'Amendments' })).toContainText('The pour was stopped 3 hours, not 2');
  await expect(delays).toContainText('Rain stopped the pour2');
  await saveScreenshot(manager, 'daily-log-signed-desktop');

  const [download] = await Promise.all([manager.waitForEvent('download'), beside.getByRole('button', { name: 'PDF of this day' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^siteboard-daily-log-\d+-\d{4}-\d{2}-\d{2}\.pdf$/);
  expect(fs.readFileSync(await download.path()).subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // The crew's phone now shows the day as signed.
  await first.reload();
  await expect(first.getByText('This log is signed: it can no longer be changed.')).toBeVisible();

  // The project was entered today: an earlier day is owed once someone has opened its log.
  await managerApi.put(`/api/projects/${project.id}/daily-logs/${dayFromToday(-2)}/`, { notes: 'Started before it was entered' });
  // An admin sees the project's earlier working days without a signed log, and opens one.
  const adminPage = await newPage({ viewport: { width: 1280, height: 800 } });
  await signIn(adminPage, 'admin');
  const owed = adminPage.getByRole('list', { name: `Days without a signed log in ${name}` });
  await owed.scrollIntoViewIfNeeded();
  await expect(owed.getByRole('link')).not.toHaveCount(0);
  await expectNoSeriousViolations(adminPage);
  await owed.getByRole('link').last().click();
  await expect(adminPage).toHaveURL(/\/admin\/daily-log\?project=\d+&date=\d{4}-\d{2}-\d{2}$/);
  await expect(adminPage.getByTestId('log-status')).toContainText('not signed yet');
});
