import { expect, test, type Page } from '../test';
import { expectNoSeriousViolations, DEMO, saveScreenshot, showMoreUntilVisible, signIn } from '../fixtures';

async function showReport(page: Page) {
  const section = page.getByRole('region', { name: 'Appraisal Report' });
  const option = (await section.getByLabel('User').locator('option', { hasText: DEMO.accounts.team_member }).textContent()) ?? '';
  await section.getByLabel('User').selectOption({ label: option });
  await section.getByRole('button', { name: 'Generate Report' }).click();
  await expect(section.getByRole('progressbar', { name: 'Efficiency Score' })).toBeVisible();
}

/** Opens a project with tasks; newer projects may come first, so it may be past the first ten. */
async function openRiverside(page: Page) {
  const riverside = page.getByRole('button', { name: 'Riverside Apartments', exact: true });
  await showMoreUntilVisible(page.getByRole('region', { name: 'Ongoing Projects' }), riverside);
  await riverside.click();
}

const horizontalOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test('the admin dashboard and both forms have no serious accessibility problems', async ({ page }) => {
  await signIn(page, 'admin');
  await expect(page.getByRole('table', { name: 'All Users' })).toBeVisible();
  // At 1280 px the table leaves a short address room for one line ("manager1@example.com", not
  // "manager1 / @example.com"): its row actions are a word and two icons.
  const lines = await page.getByRole('table', { name: 'All Users' }).getByText(DEMO.accounts.manager, { exact: true }).first().evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top))).size;
  });
  expect(lines, `${DEMO.accounts.manager} on one line`).toBe(1);
  await openRiverside(page);
  await showReport(page);
  await expectNoSeriousViolations(page);
  await saveScreenshot(page, 'admin-dashboard');

  // A row in edit mode and the delete confirmation are part of the screen too.
  await page.getByRole('button', { name: `Edit ${DEMO.accounts.team_member}` }).click();
  await page.getByRole('combobox', { name: 'Role' }).selectOption('manager');
  await expectNoSeriousViolations(page);
  await page.keyboard.press('Escape');
  const deleteOldMill = page.getByRole('button', { name: 'Delete Old Mill Renovation' });
  await showMoreUntilVisible(page.getByRole('region', { name: 'Completed Projects' }), deleteOldMill);
  await deleteOldMill.click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await expect(page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoSeriousViolations(page);
  await page.keyboard.press('Escape');
  await expect(deleteOldMill).toBeFocused();

  await page.getByRole('link', { name: 'Create User' }).click();
  await page.getByRole('button', { name: 'Create User' }).click();
  await expect(page.getByText('Email and password are required.').first()).toBeVisible();
  await expectNoSeriousViolations(page);
  await saveScreenshot(page, 'admin-create-user');

  await page.getByRole('link', { name: 'Back to dashboard' }).click();
  await page.getByRole('link', { name: 'Create Project' }).click();
  await page.getByRole('button', { name: 'Create Project' }).click();
  await expect(page.getByText('Project name is required.')).toBeVisible();
  await expectNoSeriousViolations(page);
  await saveScreenshot(page, 'admin-create-project');
});

test('the admin screens at phone width: the lists become cards and nothing widens the page @phone', async ({ page }) => {
  await signIn(page, 'admin');
  await expect(page.getByRole('table', { name: 'All Users' })).toBeVisible();
  await openRiverside(page);
  await showReport(page);
  // Each user is a card: the column headers give way to labels inside the card.
  await expect(page.getByRole('table', { name: 'All Users' }).getByRole('columnheader', { name: 'Code' })).toBeHidden();
  const edit = await page.getByRole('button', { name: `Edit ${DEMO.accounts.team_member}` }).boundingBox();
  expect(edit!.x + edit!.width).toBeLessThanOrEqual(page.viewportSize()!.width);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await saveScreenshot(page, 'admin-dashboard-phone');

  await page.getByRole('button', { name: `Edit ${DEMO.accounts.team_member}` }).click();
  await expect(page.getByRole('combobox', { name: 'Role' })).toBeFocused();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await page.keyboard.press('Escape');

  await page.getByRole('link', { name: 'Create User' }).click();
  await expect(page).toHaveURL('/admin/create-user');
  await expect(page.getByRole('combobox', { name: 'Manager' })).toHaveValue(/\d+/);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await saveScreenshot(page, 'admin-create-user-phone');
  await page.getByRole('link', { name: 'Back to dashboard' }).click();
  await page.getByRole('link', { name: 'Create Project' }).click();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await saveScreenshot(page, 'admin-create-project-phone');
});
