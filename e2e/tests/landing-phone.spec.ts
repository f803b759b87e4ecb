import { expect, test } from '../test';
import { saveScreenshot } from '../fixtures';

test('landing page at phone width: menu collapses and nothing overflows @phone', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Plan better.');
  await expect(page.getByRole('button', { name: 'Learn more' })).toBeHidden();
  await page.getByRole('button', { name: 'Menu' }).click();
  for (const item of ['Learn more', 'FAQ', 'Support']) await expect(page.getByRole('menuitem', { name: item })).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Language' }).click();
  for (const language of ['English', 'Spanish', 'French', 'German']) await expect(page.getByRole('menuitemradio', { name: language })).toBeVisible();
  // Issue 21: the menu is real now; German, the longest, must fit at phone width too.
  await page.getByRole('menuitemradio', { name: 'German' }).click();
  await expect(page.getByRole('menu')).toBeHidden();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Besser planen.');

  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expect(page.getByTestId('carousel-slide').first().getByRole('img')).toBeVisible();
  await saveScreenshot(page, 'landing-phone');
  await page.getByRole('link', { name: 'Anmelden' }).first().click();
  await expect(page).toHaveURL('/company-selection');
  await saveScreenshot(page, 'company-selection-phone');
});

test('the carousel turns by itself with four slides; under reduced motion it and the headline stand still', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('carousel-slide')).toHaveCount(4);
  const activeSlide = page.locator('[data-testid="carousel-slide"][data-active="true"] img');
  const first = await activeSlide.getAttribute('src');
  await expect.poll(async () => activeSlide.getAttribute('src'), { timeout: 15_000 }).not.toBe(first);
  await page.getByRole('button', { name: 'Show slide 4' }).click();
  await expect(activeSlide).toHaveAttribute('src', '/images/slide-4.svg');
  await page.getByRole('button', { name: 'Pause slideshow' }).click();
  await expect(page.getByRole('button', { name: 'Play slideshow' })).toBeVisible();

  // Reduced motion: the headline shows whole and the slideshow waits for Play (issue 25); that it
  // then stays put over time is the component test's (fake timers), not a wait here.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.reload();
  const parts = page.getByTestId('headline-part');
  await expect(parts).toHaveCount(3);
  for (let index = 0; index < 3; index++) await expect(parts.nth(index)).toHaveClass(/opacity-100/);
  await expect(page.getByRole('button', { name: 'Play slideshow' })).toBeVisible();
  await expect(activeSlide).toHaveAttribute('src', '/images/slide-1.svg');
});
