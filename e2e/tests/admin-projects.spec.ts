import { expect, test, type Page } from '../test';
import { DEMO, DEMO_NAMES, demoLabel, saveScreenshot, showMoreUntilVisible, signIn } from '../fixtures';

const table = (page: Page, name: 'Ongoing Projects' | 'Completed Projects') => page.getByRole('table', { name });
const projectRow = (page: Page, list: 'Ongoing Projects' | 'Completed Projects', name: string) =>
  table(page, list).getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

/** The row in edit mode: the one with a Save button. */
const editor = (page: Page) => page.getByRole('row').filter({ has: page.getByRole('button', { name: /^Save / }) });

function isoDay(offsetDays: number) {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** How the list shows that day: "Mar 23, 2027". */
function shownDay(offsetDays: number) {
  return new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${isoDay(offsetDays)}T00:00:00Z`));
}

test('ongoing projects open onto their major tasks and subtasks; completed ones do not open', async ({ page }) => {
  await signIn(page, 'admin');
  const riverside = projectRow(page, 'Ongoing Projects', 'Riverside Apartments');
  const toggle = riverside.getByRole('button', { name: 'Riverside Apartments', exact: true });
  // Newest first, ten at a time: the seeded projects may sit past the first page.
  await showMoreUntilVisible(page.getByRole('region', { name: 'Ongoing Projects' }), toggle);
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const tasks = page.getByRole('list', { name: 'Major tasks of Riverside Apartments' });
  await expect(tasks.getByRole('heading', { name: 'Foundations' })).toBeVisible();
  await expect(tasks).toContainText('Excavate site');
  await expect(tasks).toContainText(demoLabel('member1@example.com'));
  await toggle.click();
  await expect(tasks).toBeHidden();

  // Planned projects count as ongoing.
  await expect(projectRow(page, 'Ongoing Projects', 'Northgate School Extension')).toContainText('Planned');
  const oldMill = projectRow(page, 'Completed Projects', 'Old Mill Renovation');
  await showMoreUntilVisible(page.getByRole('region', { name: 'Completed Projects' }), oldMill);
  await expect(oldMill).toContainText('Completed');
  await expect(oldMill.getByRole('button', { name: 'Old Mill Renovation', exact: true })).toHaveCount(0);
  await expect(oldMill.getByRole('button', { name: 'Edit Old Mill Renovation' })).toBeVisible();
});

test('the admin creates a project, edits it, completes it, reopens it and deletes it', async ({ page }) => {
  const name = `Depot Canopy ${Date.now().toString(36)}`;
  await signIn(page, 'admin');
  await page.getByRole('link', { name: 'Create Project' }).click();
  await expect(page).toHaveURL('/admin/create-project');
  await expect(page.getByRole('heading', { name: 'Create Project' })).toBeVisible();

  await page.getByRole('button', { name: 'Create Project' }).click();
  await expect(page.getByText('Project name is required.')).toBeVisible();
  await expect(page.getByText('Start date is required.')).toBeVisible();
  await expect(page.getByText('End date is required.')).toBeVisible();
  await expect(page.getByText('Select a manager.')).toBeVisible();
  await expect(page.getByLabel('Project Name')).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Project Name').fill(name);
  await page.getByLabel('Description').fill('Steel canopy over the loading bays.');
  await page.getByLabel('Start Date').fill(isoDay(10));
  await page.getByLabel('End Date').fill(isoDay(5));
  await page.getByLabel('Manager', { exact: true }).selectOption({ label: demoLabel(DEMO.accounts.manager) });
  await page.getByRole('button', { name: 'Create Project' }).click();
  await expect(page.getByText('End date cannot be before the start date.')).toBeVisible();
  await page.getByLabel('End Date').fill(isoDay(90));
  await page.getByRole('button', { name: 'Create Project' }).click();

  await expect(page).toHaveURL('/admin');
  const row = projectRow(page, 'Ongoing Projects', name);
  await expect(row).toContainText('Steel canopy over the loading bays.');
  await expect(row).toContainText(DEMO_NAMES[DEMO.accounts.manager]);
  await expect(row).toContainText('Ongoing');
  await row.getByRole('button', { name, exact: true }).click();
  await expect(page.getByText('No major tasks for this project.')).toBeVisible();

  // Edit name, description and manager inline.
  const renamed = `${name} (phase 1)`;
  await row.getByRole('button', { name: `Edit ${name}` }).click();
  await expect(editor(page).getByRole('textbox', { name: 'Project Name' })).toBeFocused();
  // At 1280 px the edit row fits: every control left of Save and Cancel, nothing scrolls sideways (issue 25).
  const actions = await editor(page).getByRole('cell').last().boundingBox();
  for (const control of await editor(page).locator('input, select').all()) {
    const box = await control.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(actions!.x);
  }
  const table = editor(page).locator('xpath=ancestor::table[1]/..');
  expect(await table.evaluate((box) => box.scrollWidth - box.clientWidth)).toBeLessThanOrEqual(0);
  await saveScreenshot(page, 'admin-project-edit-row');
  await editor(page).getByRole('textbox', { name: 'Project Name' }).fill(renamed);
  await editor(page).getByRole('textbox', { name: 'Description' }).fill('Canopy and drainage.');
  await editor(page).getByRole('combobox', { name: 'Manager' }).selectOption({ label: demoLabel('manager2@example.com') });
  await editor(page).getByRole('textbox', { name: 'End Date' }).fill(isoDay(1));
  await page.getByRole('button', { name: `Save ${name}` }).click();
  await expect(page.getByText('End date cannot be before the start date.')).toBeVisible();
  await editor(page).getByRole('textbox', { name: 'End Date' }).fill(isoDay(120));
  await page.getByRole('button', { name: `Save ${name}` }).click();
  await expect(page.getByText('Project updated successfully!')).toBeVisible();
  const renamedRow = projectRow(page, 'Ongoing Projects', renamed);
  await expect(renamedRow).toContainText('Canopy and drainage.');
  await expect(renamedRow).toContainText(DEMO_NAMES['manager2@example.com']);
  await expect(renamedRow).toContainText(shownDay(120));

  // Completing moves it to the completed list, where it cannot open; it can be reopened.
  await renamedRow.getByRole('button', { name: `Edit ${renamed}` }).click();
  await editor(page).getByRole('combobox', { name: 'Status' }).selectOption('completed');
  await page.getByRole('button', { name: `Save ${renamed}` }).click();
  const completedRow = projectRow(page, 'Completed Projects', renamed);
  await expect(completedRow).toBeVisible();
  await expect(projectRow(page, 'Ongoing Projects', renamed)).toHaveCount(0);
  await expect(completedRow.getByRole('button', { name: renamed, exact: true })).toHaveCount(0);
  await completedRow.getByRole('button', { name: `Edit ${renamed}` }).click();
  await editor(page).getByRole('combobox', { name: 'Status' }).selectOption('ongoing');
  await page.getByRole('button', { name: `Save ${renamed}` }).click();
  await expect(projectRow(page, 'Ongoing Projects', renamed)).toBeVisible();

  // Delete asks first.
  await projectRow(page, 'Ongoing Projects', renamed).getByRole('button', { name: `Delete ${renamed}` }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(renamed);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Project deleted successfully!')).toBeVisible();
  await expect(page.getByRole('rowheader', { name: renamed })).toHaveCount(0);
});
