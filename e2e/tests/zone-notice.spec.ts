import type { Page } from '@playwright/test';
import { expect, test } from '../test';
import { saveScreenshot, signIn } from '../fixtures';

// The demo company keeps its times in UTC; this device's clock is in Berlin (never UTC's offset).
test.use({ timezoneId: 'Europe/Berlin' });

/**
 * From the page's first frame on, where the page's title (h1) stands in each frame, and the
 * browser's layout shifts: what a reader sees move. Installed before the app's code runs.
 */
async function watchThePage(page: Page) {
  await page.addInitScript(() => {
    const seen = { tops: [] as number[], shifts: [] as { value: number; sources: string[] }[] };
    (window as unknown as { __watch: typeof seen }).__watch = seen;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean; sources: { node?: Node }[] }[]) {
        if (entry.hadRecentInput) continue;
        seen.shifts.push({ value: entry.value, sources: entry.sources.map((source) => (source.node instanceof Element ? `${source.node.tagName} ${source.node.textContent?.slice(0, 40) ?? ''}` : String(source.node))) });
      }
    }).observe({ type: 'layout-shift', buffered: true });
    const frame = () => {
      const title = document.querySelector('#main-content h1');
      if (title) {
        const top = Math.round(title.getBoundingClientRect().top + window.scrollY);
        if (seen.tops.at(-1) !== top) seen.tops.push(top);
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

const watched = (page: Page) => page.evaluate(() => (window as unknown as { __watch: { tops: number[]; shifts: { value: number; sources: string[] }[] } }).__watch);

for (const phone of [false, true]) {
  test(`the zone notice stands above the page from its first paint: nothing moves when it comes${phone ? ' @phone' : ''}`, async ({ page }) => {
    await watchThePage(page);
    await signIn(page, 'manager');
    const notice = page.getByRole('region', { name: 'Time zone' });
    await expect(notice).toHaveText(/^Times are shown on your company's clock, UTC\. This device is set to Berlin \(UTC\+0[12]:00\)\./);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Everything drawn after the first paint is there: the account menu (which once brought the notice) and the header's tools.
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const { tops, shifts } = await watched(page);
    // The page's title was drawn in one place, below the notice, and stayed there.
    expect(tops).toHaveLength(1);
    expect(shifts.filter((shift) => shift.sources.some((source) => source.startsWith('MAIN') || source.startsWith('H1') || source.startsWith('SECTION Times are shown')))).toEqual([]);
    await saveScreenshot(page, `zone-notice-${phone ? 'phone' : 'desktop'}-en`);

    // "Keep UTC": gone, and the page moves up once, because the reader asked.
    await notice.getByRole('button', { name: 'Keep UTC' }).click();
    await expect(notice).toBeHidden();
  });
}
