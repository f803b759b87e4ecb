import { expect, test, type Page } from '../test';
import { assignWork, apiSignIn, userId, type ApiSubtask } from '../api-helpers';
import { DEMO, DEMO_NAMES, demoLabel, saveScreenshot, signIn, type DemoEmail } from '../fixtures';

const usersTable = (page: Page) => page.getByRole('table', { name: 'All Users' });
/** The row headed by this person: their e-mail, after their name if they have one (other rows name them in their Manager column). */
const userRow = (page: Page, person: string) => usersTable(page).getByRole('row').filter({ has: page.getByRole('rowheader', { name: person, exact: true }) });
/** How the table heads a demo person's row: "Maria Keller manager1@example.com". */
const demoPerson = (email: DemoEmail) => `${DEMO_NAMES[email]} ${email}`;

async function createUser(page: Page, input: { email: string; role: 'Manager' | 'Team Member'; manager?: string; designation?: string; mobile?: string }) {
  await page.getByRole('link', { name: 'Create User' }).click();
  await expect(page.getByRole('heading', { name: 'Create New User' })).toBeVisible();
  await page.getByLabel('Email').fill(input.email);
  await page.getByLabel('Password', { exact: true }).fill('site password 1');
  // The person chooses their own at the first sign-in unless the admin says otherwise.
  await expect(page.getByRole('checkbox', { name: 'Ask for a new password at the first sign-in' })).toBeChecked();
  await page.getByLabel('Role').selectOption({ label: input.role });
  if (input.manager) await page.getByLabel('Manager', { exact: true }).selectOption({ label: input.manager });
  if (input.designation) await page.getByLabel('Designation').fill(input.designation);
  if (input.mobile) await page.getByLabel('Mobile Number').fill(input.mobile);
  await page.getByRole('button', { name: 'Create User' }).click();
}

test('the admin creates a manager and a team member, edits one, is refused a duplicate and deletes one', async ({ page }) => {
  const suffix = Date.now().toString(36);
  const manager = `foreman-${suffix}@example.com`;
  const member = `roofer-${suffix}@example.com`;
  await signIn(page, 'admin');

  // The seeded people are listed; the admin's own row has neither Edit nor Delete.
  await expect(userRow(page, demoPerson(DEMO.accounts.manager))).toContainText('Site Manager');
  const own = userRow(page, demoPerson(DEMO.accounts.admin));
  await expect(own).toContainText('Admin');
  await expect(own.getByRole('button')).toHaveCount(0);

  // The form's own rules, before anything is sent.
  await page.getByRole('link', { name: 'Create User' }).click();
  await expect(page).toHaveURL('/admin/create-user');
  await expect(page.getByLabel('Manager', { exact: true })).toHaveValue(/\d+/);
  await page.getByRole('button', { name: 'Create User' }).click();
  await expect(page.getByText('Email and password are required.')).toHaveCount(2);
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('link', { name: 'Back to dashboard' }).click();

  await createUser(page, { email: manager, role: 'Manager', designation: 'Foreman', mobile: '+1 555 0199' });
  await expect(page).toHaveURL('/admin');
  await expect(page.getByText('User created successfully!')).toBeVisible();
  await expect(userRow(page, manager)).toContainText('Foreman');
  await expect(userRow(page, manager)).toContainText(/MGR-\d{4}/);

  await createUser(page, { email: member, role: 'Team Member', manager });
  await expect(page.getByText('User created successfully!')).toBeVisible();
  const memberRow = userRow(page, member);
  await expect(memberRow).toContainText(/TM-\d{4}/);
  await expect(memberRow).toContainText(manager);
  // Optional fields left empty were sent as null and show as N/A.
  await expect(memberRow.getByRole('cell').nth(2)).toHaveText('N/A');

  // Inline edit: Cancel changes nothing, Save sends the designation.
  await memberRow.getByRole('button', { name: `Edit ${member}` }).click();
  await page.getByRole('textbox', { name: 'Designation' }).fill('Roofer');
  await page.getByRole('button', { name: `Cancel editing ${member}` }).click();
  await expect(memberRow.getByRole('cell').nth(2)).toHaveText('N/A');
  await expect(memberRow.getByRole('button', { name: `Edit ${member}` })).toBeFocused();
  await memberRow.getByRole('button', { name: `Edit ${member}` }).click();
  await page.getByRole('textbox', { name: 'Designation' }).fill('Roofer');
  await page.getByRole('textbox', { name: 'Mobile Number' }).fill('+1 555 0142');
  await page.getByRole('button', { name: `Save ${member}` }).click();
  await expect(page.getByText('User updated successfully!')).toBeVisible();
  await expect(memberRow).toContainText('Roofer');
  await expect(memberRow).toContainText('+1 555 0142');

  // A manager with a team cannot be deleted: the question says so, and Delete waits (the server
  // refuses it too: row-results.test.tsx shows its words).
  await userRow(page, manager).getByRole('button', { name: `Delete ${manager}` }).click();
  const refusal = page.getByRole('alertdialog');
  await expect(refusal.getByRole('alert')).toHaveText(/^They manage \d+ team members?: give them another manager first/);
  await expect(refusal.getByRole('button', { name: 'Delete' })).toBeDisabled();
  await refusal.getByRole('button', { name: 'Cancel' }).click();
  await expect(refusal).toBeHidden();

  // The same e-mail again is refused on its field.
  await createUser(page, { email: member, role: 'Manager' });
  await expect(page.getByText('A user with this email already exists. Please use a different email.')).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL('/admin/create-user');
  // The refused input is still in the form: leaving asks first.
  await page.getByRole('link', { name: 'Back to dashboard' }).click();
  await page.getByRole('alertdialog', { name: 'Leave this form?' }).getByRole('button', { name: 'Leave' }).click();

  // Delete asks first; Cancel keeps the user, Delete removes them.
  await memberRow.getByRole('button', { name: `Delete ${member}` }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(member);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(memberRow).toBeVisible();
  await memberRow.getByRole('button', { name: `Delete ${member}` }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('User deleted successfully!')).toBeVisible();
  await expect(userRow(page, member)).toHaveCount(0);

  // Now the manager has no team and goes too.
  await userRow(page, manager).getByRole('button', { name: `Delete ${manager}` }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('User deleted successfully!')).toBeVisible();
  await expect(userRow(page, manager)).toHaveCount(0);
});

test('changing a role to team member asks for a manager; the keyboard alone edits a row', async ({ page }) => {
  const suffix = Date.now().toString(36);
  const person = `inspector-${suffix}@example.com`;
  await signIn(page, 'admin');
  await createUser(page, { email: person, role: 'Manager' });
  await expect(page.getByText('User created successfully!')).toBeVisible();

  const row = userRow(page, person);
  await row.getByRole('button', { name: `Edit ${person}` }).focus();
  await page.keyboard.press('Enter');
  const role = page.getByRole('combobox', { name: 'Role' });
  await expect(role).toBeFocused();
  await expect(page.getByRole('combobox', { name: 'Manager' })).toHaveCount(0);
  await role.selectOption('team_member');
  const manager = page.getByRole('combobox', { name: 'Manager' });
  await expect(manager).toBeVisible();
  // At 1280 px the edit row fits: no control sits under the sticky Save and Cancel (issue 25).
  const editRow = page.getByRole('row').filter({ has: page.getByRole('button', { name: `Save ${person}` }) });
  const actions = await editRow.getByRole('cell').last().boundingBox();
  for (const control of await editRow.locator('input, select').all()) {
    const box = await control.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(actions!.x);
  }
  await saveScreenshot(page, 'admin-user-edit-row');
  await manager.selectOption({ label: demoLabel(DEMO.accounts.manager) });
  await page.getByRole('textbox', { name: 'Designation' }).press('Enter');
  await expect(page.getByText('User updated successfully!')).toBeVisible();
  await expect(row).toContainText('Team Member');
  await expect(row).toContainText(DEMO_NAMES[DEMO.accounts.manager]);
  await expect(row).toContainText(/TM-\d{4}/);

  // Escape leaves edit mode without saving.
  await row.getByRole('button', { name: `Edit ${person}` }).click();
  await page.getByRole('textbox', { name: 'Designation' }).fill('Inspector');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('textbox', { name: 'Designation' })).toHaveCount(0);
  await expect(row).not.toContainText('Inspector');
});

test("deleting a team member with open work hands it to whoever the admin picks in the same step", async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const leaving = `leaving.${stamp}@example.com`;
  const title = `Seal the lift shaft ${stamp}`;
  const admin = await apiSignIn(request, 'admin');
  const managerId = await userId(admin, DEMO.accounts.manager);
  await admin.post('/api/users/', { email: leaving, password: DEMO.password, role: 'team_member', manager_id: managerId });
  const manager = await apiSignIn(request, 'manager');
  const subtaskId = (await assignWork(manager, `Lift ${stamp}`, [{ name: title, assignee: leaving, dueInDays: 5 }]))[title];

  await signIn(page, 'admin');
  await userRow(page, leaving).getByRole('button', { name: `Delete ${leaving}` }).click();
  const dialog = page.getByRole('alertdialog');
  const heir = dialog.getByLabel('Give their open work to');
  // Their manager is offered first and chosen unless the admin picks someone else.
  await expect(heir).toHaveValue(String(managerId));
  await heir.selectOption(String(await userId(admin, 'member2@example.com')));
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('User deleted successfully!')).toBeVisible();
  await expect(userRow(page, leaving)).toHaveCount(0);

  const subtask = await manager.get<ApiSubtask>(`/api/subtasks/${subtaskId}/`);
  expect(subtask.assigned_to?.email).toBe('member2@example.com');
  expect(subtask.status).toBe('ongoing');
});
