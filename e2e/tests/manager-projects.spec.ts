import { expect, test, type Page } from '../test';
import { apiSignIn, dayFromToday, userId, type ApiProject } from '../api-helpers';
import { DEMO, DEMO_NAMES, saveScreenshot, signIn, projectRows } from '../fixtures';

/** The project rows of the open tab (not the lists inside an opened project). */
const rows = projectRows;

/** Enough ongoing projects, made by the demo admin, that the list needs "Show More". */
/** Ten new ongoing projects of the manager's, so a first page holds only these and older ones sit past it. */
async function makeTenOngoingProjects(page: Page, stamp: string) {
  const admin = await apiSignIn(page.request, 'admin');
  const managerId = await userId(admin, DEMO.accounts.manager);
  const existing = (await admin.get<ApiProject[]>('/api/projects/?status=planned,ongoing')).length;
  const made: string[] = [];
  for (let index = 1; index <= 10; index += 1) {
    const name = `Depot Block ${stamp} ${index}`;
    await admin.post('/api/projects/', { name, description: '', start_date: dayFromToday(-5), end_date: dayFromToday(60), manager_id: managerId, status: 'ongoing' });
    made.push(name);
  }
  return { made, total: existing + made.length };
}

test('projects: tabs, a case-insensitive search, and ten at a time until Show More', async ({ page }) => {
  const stamp = Date.now().toString(36);
  const { made, total } = await makeTenOngoingProjects(page, stamp);
  const projectCalls: URL[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/projects/') projectCalls.push(url);
  });
  await signIn(page, 'manager');
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Projects' }).click();
  await expect(page.getByRole('tab', { name: 'Ongoing Projects' })).toHaveAttribute('aria-selected', 'true');

  // The server sends ten at a time: the first page, then on Show More the next, appended.
  await expect(rows(page)).toHaveCount(10);
  const firstPage = projectCalls.find((url) => url.searchParams.get('status') === 'planned,ongoing' && url.searchParams.get('limit') === '10');
  expect(firstPage).toBeDefined();
  // A page holds the projects alone: their tasks come when one is opened.
  expect(firstPage?.searchParams.get('expand')).toBeNull();
  await saveScreenshot(page, 'manager-projects');
  const nextPage = page.waitForRequest((request) => request.url().includes('/api/projects/?') && new URL(request.url()).searchParams.get('offset') === '10');
  await page.getByRole('button', { name: 'Show More' }).click();
  await nextPage;
  await expect(rows(page)).toHaveCount(Math.min(total, 20));
  await page.getByRole('button', { name: 'Show Less' }).click();
  await expect(rows(page)).toHaveCount(10);

  // Newest first, as in every role's project lists: the ten just made fill the first page.
  const latest = made[made.length - 1]!;
  await expect(rows(page).first()).toContainText(latest);
  // An older project past the first ten is found by the server's search, not among the rows already loaded.
  await expect(rows(page).filter({ hasText: 'Riverside Apartments' })).toHaveCount(0);
  const search = page.getByPlaceholder('Search projects...');
  const searched = page.waitForRequest((request) => new URL(request.url()).searchParams.get('search') === 'riverside');
  await search.fill('riverside');
  await searched;
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText('Riverside Apartments');
  // Planned counts as ongoing.
  await search.fill('northgate');
  await expect(rows(page).filter({ hasText: 'Northgate School Extension' })).toHaveCount(1);

  await search.fill(`depot block ${stamp}`.toUpperCase());
  await expect(rows(page)).toHaveCount(made.length);
  await expect(page.getByRole('button', { name: 'Show More' })).toHaveCount(0);
  await search.fill('RIVERSIDE');
  await expect(rows(page)).toHaveCount(1);
  const riverside = rows(page).first();
  await expect(riverside).toContainText('Riverside Apartments');
  await expect(riverside).toContainText(DEMO_NAMES[DEMO.accounts.manager]);
  await expect(riverside).toContainText('Start Date');
  await expect(riverside).toContainText('End Date');
  await search.fill('no project is called this');
  await expect(page.getByText('No projects available.')).toBeVisible();

  // A new project has no major tasks yet.
  await search.fill(made[1]!);
  await page.getByRole('button', { name: new RegExp(`^${made[1]}`) }).click();
  await expect(page.getByText('No major tasks for this project.')).toBeVisible();

  // Completed projects: greyed, not expandable, view only.
  await search.fill('');
  await page.getByRole('tab', { name: 'Completed Projects' }).click();
  const mill = rows(page).filter({ hasText: 'Old Mill Renovation' });
  await expect(mill).toContainText('View Only (Project Completed)');
  await expect(mill.getByRole('button')).toHaveCount(0);
  await expect(rows(page).filter({ hasText: 'Riverside Apartments' })).toHaveCount(0);
  await saveScreenshot(page, 'manager-projects-completed');
});

test('projects: the tabs and rows work from the keyboard', async ({ page }) => {
  await signIn(page, 'manager');
  await page.goto('/manager/projects');
  await page.getByRole('tab', { name: 'Ongoing Projects' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Completed Projects' })).toBeFocused();
  await expect(page.getByRole('tab', { name: 'Completed Projects' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowLeft');
  await page.getByPlaceholder('Search projects...').fill('Riverside');
  const project = page.getByRole('button', { name: /^Riverside Apartments/ });
  await project.focus();
  // Opening a project is what brings a page of its major tasks (never its whole tree): one request.
  const opened = page.waitForRequest((request) => /\/api\/projects\/\d+\/major-tasks\/\?limit=20&offset=0$/.test(request.url()));
  await page.keyboard.press('Enter');
  await opened;
  await expect(project).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('button', { name: /Foundations/ })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: /Foundations/ })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: /Foundations/ })).toHaveAttribute('aria-expanded', 'true');
  const outline = await page.getByRole('button', { name: /Foundations/ }).evaluate((element) => getComputedStyle(element).outlineStyle);
  expect(outline).not.toBe('none');
});
