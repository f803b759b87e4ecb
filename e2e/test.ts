import { test as base, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';

export { expect } from '@playwright/test';
export type { APIRequestContext, Browser, BrowserContextOptions, Locator, Page, WebSocketRoute } from '@playwright/test';

/** The first journey server's port; worker n has its own server on port + n (playwright.config.ts). */
export const firstPort = Number(process.env.E2E_PORT ?? 4173);

/**
 * The journeys' `test`: each worker signs in to its own server and database, so two journeys
 * running side by side never see each other's writes.
 */
export const test = base.extend<{ newPage: (options?: BrowserContextOptions) => Promise<Page> }>({
  // Playwright reads a fixture's dependencies from its first parameter: this one has none.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use, testInfo) => {
    await use(`http://localhost:${firstPort + testInfo.parallelIndex}`);
  },
  /**
   * A page in a browser context of its own (a second person in the journey), closed with the test:
   * a context left open keeps its live connection and polling running through the worker's later journeys.
   */
  newPage: async ({ browser }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (options) => {
      const context = await browser.newContext(options);
      contexts.push(context);
      return context.newPage();
    });
    for (const context of contexts) await context.close();
  },
});
