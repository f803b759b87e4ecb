import { expect, test, type Page } from '../test';
import { expectNoSeriousViolations, openInApp, openProject, saveScreenshot, signIn } from '../fixtures';

test('axe: the dashboard, projects and create-task screens have no serious or critical violations', async ({ page }) => {
  await signIn(page, 'manager');
  await page.getByRole('button', { name: /^Pending Approvals/ }).click();
  await expect(page.getByRole('table')).toBeVisible();
  await expectNoSeriousViolations(page);

  await openInApp(page, '/manager/projects');
  await openProject(page, 'Riverside Apartments');
  await page.getByRole('button', { name: /Framing/ }).click();
  await page.getByRole('button', { name: 'Create Subtask' }).click();
  await page.getByRole('button', { name: 'Submit Subtask' }).click();
  await expect(page.getByText('Title is required.')).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.getByRole('tab', { name: 'Completed Projects' }).click();
  await expectNoSeriousViolations(page);

  await openInApp(page, '/manager/create-task');
  await page.getByRole('button', { name: 'Add Subtask' }).click();
  await page.getByRole('button', { name: 'Create Major Task' }).click();
  await expect(page.getByText('Select a project.')).toBeVisible();
  await expectNoSeriousViolations(page);

  await openInApp(page, '/manager/team-assignments');
  await expect(page.getByRole('article').first()).toBeVisible();
  await expectNoSeriousViolations(page);
});

const PHONE_SCREENS = [
  {
    path: '/manager',
    name: 'dashboard',
    ready: async (page: Page) => {
      await page.getByRole('button', { name: /^Pending Approvals/ }).click();
      // Until its page has come the list holds one card saying "Loading...".
      const pending = page.getByRole('list', { name: 'Pending Approvals' });
      await expect(pending.getByRole('listitem').first()).toBeVisible();
      await expect(pending).not.toContainText('Loading...');
    },
  },
  {
    path: '/manager/projects',
    name: 'projects',
    ready: async (page: Page) => {
      await openProject(page, 'Riverside Apartments');
      await page.getByRole('button', { name: /Framing/ }).click();
    },
  },
  { path: '/manager/create-task', name: 'create-task', ready: (page: Page) => page.getByRole('button', { name: 'Create Major Task' }).click() },
    // On a phone each subtask is a card, not a table row.
  { path: '/manager/my-tasks', name: 'my-tasks', ready: (page: Page) => expect(page.getByRole('list', { name: 'Assigned Tasks' }).getByRole('listitem').first()).toBeVisible() },
  { path: '/manager/team-assignments', name: 'team-performance', ready: (page: Page) => expect(page.getByRole('article').first()).toBeVisible() },
];

test('manager screens at phone width: nothing widens the page, subtask lists become cards, axe finds nothing serious @phone', async ({ page }) => {
  await signIn(page, 'manager');
  // The app starts once, on the dashboard, and moves from screen to screen by its own navigation.
  for (const screen of PHONE_SCREENS) {
    if (new URL(page.url()).pathname !== screen.path) await openInApp(page, screen.path);
    await screen.ready(page);
    // What comes after the screen's rows: their pictures. (It waited for the network to go quiet, 0.9 s on
    // the dashboard, mostly the next screens fetched ahead; on a screen the app moved to it returned at once.)
    await expect.poll(() => page.evaluate(() => Array.from(document.images).every((image) => image.complete))).toBe(true);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, screen.path).toBeLessThanOrEqual(0);
    await expectNoSeriousViolations(page);
    await saveScreenshot(page, `manager-${screen.name}-phone`);
  }
});
