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

/** The colour a CSS colour (oklch, rgb, …) is drawn in, as sRGB: a canvas draws it and reads the pixel back. */
const relativeLuminance = (page: Page, color: string) =>
  page.evaluate((css) => {
    const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    context.fillStyle = css;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = [...context.getImageData(0, 0, 1, 1).data].map((channel) => {
      const c = channel / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  }, color);

/** How a focused element shows it: its outline, or nothing. */
const focusOutline = (page: Page) =>
  page.evaluate(() => {
    const style = getComputedStyle(document.activeElement!);
    return style.outlineStyle === 'none' ? 0 : parseFloat(style.outlineWidth);
  });

test('keyboard: Skip to content comes first, the header menus show where focus is, a date field says its format legibly', async ({ page }) => {
  await signIn(page, 'manager');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  // Shown while focused, not the one-pixel box of screen-reader-only text.
  expect((await skip.boundingBox())!.width).toBeGreaterThan(40);
  await saveScreenshot(page, 'manager-skip-link');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();

  // The language menu and the account menu, by keyboard: the button and the entry with focus each have a 2 px outline.
  const language = page.getByRole('button', { name: 'Language: EN' });
  await language.focus();
  expect(await focusOutline(page)).toBeGreaterThanOrEqual(2);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitemradio', { name: /English/ })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  expect(await focusOutline(page)).toBeGreaterThanOrEqual(2);
  await saveScreenshot(page, 'manager-language-menu-focus');
  await page.keyboard.press('Escape');
  await expect(language).toBeFocused();
  const account = page.getByRole('button', { name: 'Account menu' });
  await account.focus();
  expect(await focusOutline(page)).toBeGreaterThanOrEqual(2);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Change password' })).toBeFocused();
  expect(await focusOutline(page)).toBeGreaterThanOrEqual(2);
  await page.keyboard.press('Escape');

  // A page moved to by the sidebar is announced: its heading takes focus.
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Create Task' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create Major Task');
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await page.getByRole('button', { name: 'Add Subtask' }).click();

  // The date format in an empty date field's placeholder reaches 4.5:1 on the field's white (WCAG AA).
  const due = page.getByRole('textbox', { name: 'Due Date' }).first();
  const [placeholder, field] = await due.evaluate((input) => [getComputedStyle(input, '::placeholder').color, getComputedStyle(input).backgroundColor]);
  const [lighter, darker] = [await relativeLuminance(page, field!), await relativeLuminance(page, placeholder!)].sort((a, b) => b - a);
  expect((lighter! + 0.05) / (darker! + 0.05)).toBeGreaterThanOrEqual(4.5);
});
