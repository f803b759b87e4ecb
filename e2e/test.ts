import { test as base } from '@playwright/test';

export { expect } from '@playwright/test';
export type { APIRequestContext, Browser, Locator, Page, WebSocketRoute } from '@playwright/test';

/** The first journey server's port; worker n has its own server on port + n (playwright.config.ts). */
export const firstPort = Number(process.env.E2E_PORT ?? 4173);

/**
 * The journeys' `test`: each worker signs in to its own server and database, so two journeys
 * running side by side never see each other's writes.
 */
export const test = base.extend({
  // Playwright reads a fixture's dependencies from its first parameter: this one has none.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use, testInfo) => {
    await use(`http://localhost:${firstPort + testInfo.parallelIndex}`);
  },
});
