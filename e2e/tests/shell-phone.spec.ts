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
