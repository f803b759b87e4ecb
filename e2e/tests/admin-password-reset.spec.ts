import { expect, test } from '../test';
import { apiSignIn, userId, type ApiUser } from '../api-helpers';
import { DEMO, expectNoSeriousViolations, fillLogin, passCompanyStep, signIn } from '../fixtures';

test('the admin sets a new password; the user signs in with it, must change it, then reaches their dashboard', async ({ page }) => {
  const stamp = Date.now().toString(36);
  const email = `reset-${stamp}@example.com`;
  const admin = await apiSignIn(page.request, 'admin');
  await admin.post<ApiUser>('/api/users/', {
    email,
    password: 'first password 1',
    role: 'team_member',
    manager_id: await userId(admin, DEMO.accounts.manager),
  });

  await signIn(page, 'admin');
  await page.getByRole('searchbox', { name: 'Search users' }).fill(email);
  const row = page.getByRole('table', { name: 'All Users' }).getByRole('row').filter({ has: page.getByRole('rowheader', { name: email }) });
  await row.getByRole('button', { name: `Set new password for ${email}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Set new password' });
  await dialog.getByLabel('New password').fill('set by admin 1');
  await dialog.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText(`New password set. ${email} must change it at their next sign-in.`)).toBeVisible();

  // Signed out, the user signs in with it and is asked for their own before anything else.
  await page.evaluate(() => localStorage.clear());
  await passCompanyStep(page);
  await fillLogin(page, 'team_member', email, 'set by admin 1');
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0);
  // The password just typed is not asked for again.
  await expect(page.getByLabel('Current password')).toHaveCount(0);
  // Focus is on the field to fill, not left on the page's top when the sign-in page went.
  await expect(page.getByLabel('New password')).toBeFocused();
  await expectNoSeriousViolations(page);
  await page.getByLabel('New password').fill('my own password 1');
  await page.getByRole('button', { name: 'Change password' }).click();

  await expect(page).toHaveURL(/\/team-member$/);
  await expect(page.getByRole('status').filter({ hasText: 'Your password has been changed.' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Dashboard - Welcome TM-\d{4}$/);
});
