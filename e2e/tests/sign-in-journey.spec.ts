import { expect, test } from '../test';
import { DEMO, DEMO_NAMES, HOME, passCompanyStep, fillLogin, saveScreenshot, signIn, signInThroughScreens, type Role } from '../fixtures';

const TITLES: Record<Role, RegExp> = {
  admin: /Admin Dashboard - Welcome\s*admin@example\.com/,
  manager: /Dashboard - Welcome MGR-\d{4}/,
  team_member: /Dashboard - Welcome TM-\d{4}/,
};

test('landing → Log In → company selection → sign in', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Plan better. Build faster. Lead smarter.');
  await expect(page.getByText('Manage your people and resources smart—now!')).toBeVisible();
  await expect(page.getByText('© 2025')).toBeVisible();
  await saveScreenshot(page, 'landing-desktop');
  await page.getByRole('link', { name: 'Log In' }).first().click();
  await expect(page).toHaveURL(/\/company-selection$/);
  await expect(page.getByRole('heading', { name: 'Select Company' })).toBeVisible();
  await expect(page.getByPlaceholder('Enter the Company Name')).toBeVisible();
  await expect(page.getByPlaceholder('Enter the Company Password')).toBeVisible();
  await saveScreenshot(page, 'company-selection');
});

for (const role of ['admin', 'manager', 'team_member'] as const) {
  test(`${role} signs in to their own area and logs out to their company's login`, async ({ page }) => {
    await signInThroughScreens(page, role);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(TITLES[role]);
    // A screen reader names the page reached: focus is on its heading, not left on the page's top.
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
    await expect(page.getByRole('banner')).toContainText(DEMO.companyName);
    const stored = await page.evaluate(() => ({
      token: localStorage.getItem('token'),
      refresh: localStorage.getItem('refreshToken'),
      user: JSON.parse(localStorage.getItem('user') ?? 'null'),
      companyId: localStorage.getItem('company_id'),
    }));
    expect(stored.token).toBeTruthy();
    expect(stored.refresh).toBeTruthy();
    expect(stored.user.role).toBe(role);
    expect(stored.companyId).toBe(String(stored.user.company_id));
    await saveScreenshot(page, `${role}-shell`);

    await page.getByRole('button', { name: 'Logout' }).first().click();
    await expect(page).toHaveURL(`/login?companyId=${stored.companyId}`);
    const afterLogout = await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('refreshToken'), localStorage.getItem('user')]);
    expect(afterLogout).toEqual([null, null, null]);
    // The area is closed again.
    await page.goto(HOME[role]);
    await expect(page).toHaveURL(`/company-selection?companyId=${stored.companyId}`);
  });
}

test('wrong role, wrong password and an unknown company are refused with the spec messages', async ({ page }) => {
  await page.goto('/company-selection');
  await page.getByRole('button', { name: 'Proceed to Login' }).click();
  await expect(page.getByText('Company name is required.')).toBeVisible();
  await expect(page.getByText('Password is required.')).toBeVisible();

  await page.getByLabel('Company name').fill(DEMO.companyName);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Proceed to Login' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid company name or password.');

  await passCompanyStep(page);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText('Select a role.')).toBeVisible();
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText('Enter a valid email address.')).toBeVisible();

  await fillLogin(page, 'manager', DEMO.accounts.admin, DEMO.password);
  await expect(page.getByRole('alert')).toHaveText('Invalid credentials or server error. Please try again.');
  await expect(page).toHaveURL(/\/login\?companyId=/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('route guards: no session, the wrong role and unknown paths go to the company picker', async ({ page }) => {
  await page.goto('/admin');
  await expect(page).toHaveURL('/company-selection?companyId=1');
  await page.goto('/somewhere/else');
  await expect(page).toHaveURL('/company-selection');

  await signIn(page, 'manager');
  const companyId = await page.evaluate(() => localStorage.getItem('company_id'));
  await page.goto('/admin/create-user');
  await expect(page).toHaveURL(`/company-selection?companyId=${companyId}`);
  await page.goto('/team-member');
  await expect(page).toHaveURL(`/company-selection?companyId=${companyId}`);
});

test('an expired access token is refreshed once and the screen still loads; a dead session goes to login', async ({ page }) => {
  await signIn(page, 'admin');
  const companyId = await page.evaluate(() => localStorage.getItem('company_id'));
  await page.evaluate(() => localStorage.setItem('token', 'expired-or-garbled'));
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Admin Dashboard - Welcome');
  // The stored user draws the heading at once; the refresh answers a round trip later.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).not.toBe('expired-or-garbled');

  await page.evaluate(() => {
    localStorage.setItem('token', 'garbled');
    localStorage.setItem('refreshToken', 'garbled');
  });
  await page.reload();
  await expect(page).toHaveURL(`/login?companyId=${companyId}`);
});

test('the manager shell: sidebar entries, collapsible, header with name, e-mail and avatar', async ({ page }) => {
  await signIn(page, 'manager');
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  for (const entry of ['Dashboard', 'Projects', 'Create Task', 'My Tasks', 'Team Member Performance']) {
    await expect(nav.getByRole('link', { name: entry })).toBeVisible();
  }
  await expect(page.getByTestId('header-name')).toHaveText(DEMO_NAMES[DEMO.accounts.manager]);
  await expect(page.getByTestId('header-email')).toHaveText(DEMO.accounts.manager);
  await nav.getByRole('link', { name: 'Create Task' }).click();
  await expect(page.getByRole('heading', { name: 'Create Major Task' })).toBeVisible();
  await page.getByRole('button', { name: 'Toggle sidebar' }).click();
  await expect(nav.getByText('Create Task')).toHaveClass(/sr-only/);
  await page.goto('/team-performance');
  await expect(page.getByRole('heading', { name: 'Team Member Performance' })).toBeVisible();
});
