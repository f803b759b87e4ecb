import { expect, test, type Page } from '../test';
import { pageSession, type ApiSubtask } from '../api-helpers';
import { saveScreenshot, signIn } from '../fixtures';

interface TeamMember {
  user: { id: number; email: string; full_name: string | null };
}

const workloadCards = (page: Page) => page.getByRole('region', { name: 'Team Workload' }).locator(':scope > ul > li');
const performanceCards = (page: Page) => page.getByRole('region', { name: 'Appraisal by team member' }).getByRole('article');

test('team performance: workload least loaded first, appraisal cards, a date filter', async ({ page }) => {
  await signIn(page, 'manager');
  const appraisalCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/projects/api/manager-appraisal-report/')) appraisalCalls.push(new URL(request.url()).search);
  });
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Team Member Performance' }).click();
  await expect(page).toHaveURL('/manager/team-assignments');
  await expect(page.getByRole('heading', { level: 1, name: 'Team Member Performance' })).toBeVisible();

  // The workload the API implies: my team, ongoing subtasks of open projects, ascending.
  const api = await pageSession(page);
  const [team, ongoing, report] = await Promise.all([
    api.get<TeamMember[]>('/api/team-members/'),
    api.get<ApiSubtask[]>('/api/subtasks/?status=ongoing&project_status=ongoing,planned'),
    api.get<{ name: string; full_name: string | null; total_tasks: number }[]>('/projects/api/manager-appraisal-report/'),
  ]);
  const expected = team
    .map((member) => {
      const names = ongoing.filter((task) => task.assigned_to?.id === member.user.id).map((task) => task.name);
      return { email: member.user.email, shownName: (member.user.full_name ?? member.user.email).toLowerCase(), count: names.length, names };
    })
    // Ties in the order people are listed everywhere: by the name shown.
    .sort((a, b) => a.count - b.count || a.shownName.localeCompare(b.shownName));
  await expect(workloadCards(page)).toHaveCount(expected.length);
  for (const [index, item] of expected.entries()) {
    await expect(workloadCards(page).nth(index)).toContainText(item.email);
    await expect(workloadCards(page).nth(index)).toContainText(new RegExp(`(^|\\D)${item.count} ongoing tasks?`));
    for (const name of item.names) await expect(workloadCards(page).nth(index).getByRole('listitem').filter({ hasText: name }).first()).toBeVisible();
  }

  await expect(performanceCards(page)).toHaveCount(report.length);
  // Someone with tasks (people added by other journeys may have none yet).
  const busy = report.find((item) => item.total_tasks > 0)!;
  // Each card is titled with the person's full name (the demo's people have one), else the e-mail.
  const busyCard = page.getByRole('region', { name: 'Appraisal by team member' }).getByRole('article', { name: busy.full_name ?? busy.name, exact: true });
  await expect(busyCard).toContainText(new RegExp(`(^|\\D)${busy.total_tasks} tasks?`));
  await expect(busyCard).toContainText('Efficiency Score');
  await expect(busyCard.locator('.recharts-bar-rectangle').first()).toBeVisible();
  await saveScreenshot(page, 'manager-team-performance');

  // A range out of order is refused on its field; a range with no due dates gives empty cards.
  await page.getByLabel('Start Date').fill('2001-12-31');
  await page.getByLabel('End Date').fill('2001-01-01');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByText('Start date must be on or before the end date.')).toBeVisible();
  await page.getByLabel('Start Date').fill('2001-01-01');
  await page.getByLabel('End Date').fill('2001-12-31');
  await page.getByRole('button', { name: 'Filter' }).click();
  for (const cardLocator of await performanceCards(page).all()) await expect(cardLocator).toContainText(/(^|\D)0 tasks/);
  expect(appraisalCalls).toContain('?start_date=2001-01-01&end_date=2001-12-31');
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(page.getByLabel('Start Date')).toHaveValue('');
  await expect(busyCard).toContainText(new RegExp(`(^|\\D)${busy.total_tasks} tasks?`));
});
