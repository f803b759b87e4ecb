import { expect, test } from '../test';
import { fillLogin, passCompanyStep, saveScreenshot } from '../fixtures';

test('a new company signs up and its admin signs in', async ({ page }) => {
  const suffix = Date.now().toString(36);
  const company = `Ridgeline Builders ${suffix}`;
  const email = `owner-${suffix}@ridgeline.test`;

  await page.goto('/');
  await page.getByRole('link', { name: 'Already started signing up?' }).click();
  await expect(page).toHaveURL('/signup');
  await page.getByRole('button', { name: 'Create company' }).click();
  await expect(page.getByText('Company name is required.')).toBeVisible();

  await page.getByLabel('Company name').fill(company);
  await page.getByLabel('Company password').fill('short');
  await page.getByLabel('Admin email').fill(email);
  await page.getByLabel('Admin password').fill('owner password 1');
  await page.getByRole('button', { name: 'Create company' }).click();
  await expect(page.getByText('Password must be at least 8 characters.')).toBeVisible();
  await page.getByLabel('Company password').fill('ridgeline site pw');
  await saveScreenshot(page, 'signup');
  await page.getByRole('button', { name: 'Create company' }).click();

  await expect(page).toHaveURL(/\/login\?companyId=\d+&created=1/);
  await expect(page.getByText('Company created. Sign in as its admin.')).toBeVisible();
  await expect(page.getByText(`Company: ${company}`)).toBeVisible();
  // The new admin's e-mail and role are filled in: only the password is left.
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByLabel('Role')).toHaveValue('admin');
  await fillLogin(page, 'admin', email, 'owner password 1');
  await expect(page).toHaveURL('/admin');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Admin Dashboard - Welcome ${email}`);
  await expect(page.getByRole('banner')).toContainText(company);

  // The same name again is refused, whatever its case.
  await page.getByRole('button', { name: 'Logout' }).first().click();
  await page.goto('/signup');
  await page.getByLabel('Company name').fill(company.toUpperCase());
  await page.getByLabel('Company password').fill('another site pw');
  await page.getByLabel('Admin email').fill(`x-${email}`);
  await page.getByLabel('Admin password').fill('owner password 2');
  await page.getByRole('button', { name: 'Create company' }).click();
  await expect(page.getByRole('alert')).toHaveText('A company with this name already exists.');

  // And the new company's password opens its own login page.
  await passCompanyStep(page, company, 'ridgeline site pw');
  await expect(page.getByText(`Company: ${company}`)).toBeVisible();
});
