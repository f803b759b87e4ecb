import { expect, type Locator, type Page } from '@playwright/test';
import type { AxeResults, RunOptions } from 'axe-core';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The demo company that start-server.sh seeds (apps/server/src/scripts/demo-data.ts). */
export const DEMO = {
  companyName: 'SiteBoard Demo',
  companyPassword: 'demo-company',
  password: 'demo-password',
  accounts: {
    admin: 'admin@example.com',
    manager: 'manager1@example.com',
    team_member: 'member1@example.com',
  },
} as const;

export type Role = keyof typeof DEMO.accounts;

/** The demo people's full names (demo-data.ts): screens show a person by name, the e-mail beside or under it. */
export const DEMO_NAMES = {
  'admin@example.com': 'Helena Brandt',
  'manager1@example.com': 'Maria Keller',
  'manager2@example.com': 'Daniel Ortega',
  'member1@example.com': 'Lucas Martin',
  'member2@example.com': 'Sofia Romero',
} as const;
export type DemoEmail = keyof typeof DEMO_NAMES;

/** A demo person as option lists write them (the web's `personLabel`): "Maria Keller (manager1@example.com)". */
export const demoLabel = (email: DemoEmail) => `${DEMO_NAMES[email]} (${email})`;

export const ROLE_LABEL: Record<Role, string> = { admin: 'Admin', manager: 'Manager', team_member: 'Team Member' };
export const HOME: Record<Role, string> = { admin: '/admin', manager: '/manager', team_member: '/team-member' };

const screensDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts', 'screens');

/**
 * Saved in e2e/artifacts/screens and looked at by whoever changes the screen. E2E_SCREENSHOTS=0
 * (.ci/run: its clone is thrown away) skips only the picture, 0.2–1 s each on a busy machine; the
 * page still scrolls to the top. A picture also makes Chromium draw a frame, which had hidden the app
 * waiting for one that headless Chromium sometimes never draws (decision record 036's addendum).
 */
export async function saveScreenshot(page: Page, name: string) {
  // Scrolled down, a full-page shot draws the sticky header and sidebar in the middle of the page.
  await page.evaluate(() => window.scrollTo(0, 0));
  if (process.env.E2E_SCREENSHOTS === '0') return;
  await page.screenshot({ path: path.join(screensDir, `${name}.png`), fullPage: true });
}

export async function passCompanyStep(page: Page, companyName: string = DEMO.companyName, companyPassword: string = DEMO.companyPassword) {
  await page.goto('/company-selection');
  await page.getByLabel('Company name').fill(companyName);
  await page.getByLabel('Password').fill(companyPassword);
  await page.getByRole('button', { name: 'Proceed to Login' }).click();
  await expect(page).toHaveURL(/\/login\?companyId=\d+/);
}

export async function fillLogin(page: Page, role: Role, email: string, password: string) {
  await page.getByLabel('Role').selectOption({ label: ROLE_LABEL[role] });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

/** Signs in through the company step and the login screen, as a person does. */
export async function signInThroughScreens(page: Page, role: Role) {
  await passCompanyStep(page);
  await fillLogin(page, role, DEMO.accounts[role], DEMO.password);
  await expect(page).toHaveURL(new RegExp(`${HOME[role]}$`));
}

/**
 * Signs in as the login screen would, through the API, and opens the role's home with the session
 * the web app stores: the sign-in screens themselves have their own journey (sign-in-journey.spec).
 */
export async function signIn(page: Page, role: Role, email: string = DEMO.accounts[role]) {
  const company = await page.request.post('/api/verify-company-password/', { data: { company_name: DEMO.companyName, password: DEMO.companyPassword } });
  expect(company.ok(), await company.text()).toBeTruthy();
  const { company_id } = (await company.json()) as { company_id: number };
  const tokens = await page.request.post('/api/token/', { data: { email, password: DEMO.password, role, company_id } });
  expect(tokens.ok(), await tokens.text()).toBeTruthy();
  const { access, refresh } = (await tokens.json()) as { access: string; refresh: string };
  const profile = await page.request.get('/api/profile/', { headers: { Authorization: `Bearer ${access}` } });
  expect(profile.ok(), await profile.text()).toBeTruthy();
  const session = { company_id: String(company_id), token: access, refreshToken: refresh, user: JSON.stringify(await profile.json()) };
  // Any page of the app's origin holds its storage; the favicon is the lightest.
  await page.goto('/favicon.svg');
  await page.evaluate((items) => Object.entries(items).forEach(([key, value]) => localStorage.setItem(key, value)), session);
  await page.goto(HOME[role]);
  await expect(page).toHaveURL(new RegExp(`${HOME[role]}$`));
}

/**
 * Opens `path` in the app already running in `page`, as its own links do (the history API, then the
 * popstate its router listens to), from the top of the page as a load would: for a journey that checks
 * many screens of one signed-in session, without loading and starting the app again for each (0.6–1.7 s
 * a screen on a busy machine). Resolves once the screen that was showing has gone (its title unmounted),
 * so what the caller waits for next is the new screen's.
 */
export async function openInApp(page: Page, path: string) {
  const leaving = await page.evaluate((to) => {
    const changesScreen = new URL(to, location.href).pathname !== location.pathname;
    if (changesScreen) document.querySelectorAll('h1').forEach((title) => title.setAttribute('data-e2e-leaving', ''));
    window.scrollTo(0, 0);
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
    return changesScreen;
  }, path);
  await expect(page).toHaveURL(path);
  if (leaving) await expect(page.locator('[data-e2e-leaving]')).toHaveCount(0);
}

/** Lists come ten at a time: clicks the list's "Show More" in `section` until `target` is on screen. */
export async function showMoreUntilVisible(section: Locator, target: Locator) {
  const more = section.getByRole('button', { name: 'Show More' });
  await expect(async () => {
    // The first page has come once either is on screen. Asked earlier, a target not drawn yet sent the
    // click to a Show More not drawn yet either, and the attempt waited out its 2 s (about 2 s a call).
    await expect(target.or(more).first()).toBeVisible({ timeout: 5_000 });
    if (!(await target.isVisible())) await more.click({ timeout: 2_000 });
    await expect(target).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

/** The project browser's rows (manager and team member): one per project of the open tab. */
export const projectRows = (page: Page) => page.getByRole('tabpanel').locator(':scope > ul > li');

/**
 * Finds a project in the project browser by its name, as a person does once the list is longer than a
 * page (newest first: the demo's projects sit past the first ten once journeys have made more), and opens it.
 */
export async function openProject(page: Page, name: string) {
  await page.getByPlaceholder('Search projects...').fill(name);
  await expect(projectRows(page).filter({ hasNotText: name })).toHaveCount(0);
  await projectRows(page).getByRole('button', { name: new RegExp(`^${name}`) }).click();
}

/** axe-core's browser build, read once per worker. */
let axeSource: string | undefined;

/**
 * No serious or critical axe findings on what is on screen now (dialogs and drawers included),
 * named so a failure says what and where. axe-core runs in the page itself, put there once per
 * document: @axe-core/playwright injected it again on every check and opened a blank page to
 * finish each one, 1.6–3.1 s a check on an idle machine against 0.1–0.5 s for the same run (the
 * app has no frames to gather from). Only violations are collected: axe skips describing every
 * passing node, about a fifth of its time on these screens.
 */
export async function expectNoSeriousViolations(page: Page) {
  if (!(await page.evaluate(() => 'axe' in window))) {
    axeSource ??= fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    // Evaluated as the test's own script, not a <script> element: the app's Content-Security-Policy allows no inline script.
    await page.evaluate(axeSource);
  }
  const options: RunOptions = { resultTypes: ['violations'] };
  const results = await page.evaluate((runOptions) => (window as unknown as { axe: { run: (context: Document, options: RunOptions) => Promise<AxeResults> } }).axe.run(document, runOptions), options);
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** Reads every notification (the bell's "Mark all as read"; opening the bell reads nothing) and closes the bell. */
export async function readAllNotifications(page: Page) {
  await page.getByTestId('notification-bell').click();
  await expect(page.getByRole('tab', { name: /^Unread/ })).toBeVisible();
  if (await page.getByTestId('notification-badge').isVisible()) await page.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(page.getByTestId('notification-badge')).toBeHidden();
  await page.keyboard.press('Escape');
}

/** Whether the answers this page keeps in IndexedDB for a start without a signal mention `text` (run in the page). */
export const cacheMentions = (text: string) =>
  new Promise<boolean>((resolve) => {
    const open = indexedDB.open('siteboard-cache');
    open.onerror = () => resolve(false);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('queries')) return resolve(false);
      const all = db.transaction('queries').objectStore('queries').getAll();
      all.onsuccess = () => resolve(all.result.some((value) => typeof value === 'string' && value.includes(text)));
      all.onerror = () => resolve(false);
    };
  });
