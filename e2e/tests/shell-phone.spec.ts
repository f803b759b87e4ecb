import { expect, test } from '../test';
import { saveScreenshot, signIn } from '../fixtures';

test('role shells at phone width: the sidebar hides and slides in from the menu button @phone', async ({ page }) => {
  await signIn(page, 'admin');
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav).not.toBeInViewport();
  await saveScreenshot(page, 'admin-shell-phone');
  await page.getByRole('button', { name: 'Toggle sidebar' }).click();
  await expect(nav).toBeInViewport();
  await saveScreenshot(page, 'admin-shell-phone-menu');
  await nav.getByRole('button', { name: 'Completed Projects' }).click();
  await expect(nav).not.toBeInViewport();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test("role shells beside a tablet's sidebar (768 px): the header fits, Logout stays in the sidebar", async ({ page }) => {
  await page.setViewportSize({ width: 768, height: 1024 });
  for (const role of ['manager', 'team_member'] as const) {
    await signIn(page, role);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav).toBeInViewport();
    await expect(page.locator('#main-sidebar').getByRole('button', { name: 'Logout' })).toBeInViewport();
    // Nothing past the right edge: no sideways scroll, the tools all on screen.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, role).toBeLessThanOrEqual(0);
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeInViewport({ ratio: 1 });
  }
});
