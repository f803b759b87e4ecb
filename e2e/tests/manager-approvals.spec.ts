import { expect, test, type Page } from '../test';
import { apiSignIn, dayFromToday, findByName, pageSession, userId, type ApiMajorTask, type ApiProject, type ApiSubtask } from '../api-helpers';
import { DEMO, DEMO_NAMES, openProject, saveScreenshot, showMoreUntilVisible, signIn } from '../fixtures';

/** Three subtasks sent for approval by their assignees, and one assigned to the manager. */
async function seedPendingWork(page: Page, stamp: string) {
  const manager = await apiSignIn(page.request, 'manager');
  const projects = await manager.get<ApiProject[]>('/api/projects/');
  const [member1, member2, manager1] = await Promise.all(['member1@example.com', 'member2@example.com', DEMO.accounts.manager].map((email) => userId(manager, email)));
  const titles = { approve: `Approve me ${stamp}`, decline: `Decline me ${stamp}`, fail: `Stay pending ${stamp}`, mine: `Check the crane ${stamp}` };
  const created = await manager.post<ApiMajorTask>('/api/major-tasks/', {
    project_id: findByName(projects, 'Riverside Apartments').id,
    name: `Approvals ${stamp}`,
    description: '',
    subtasks: [
      { name: titles.approve, assigned_to_id: member1, due_date: dayFromToday(0), priority: 'high' },
      { name: titles.decline, assigned_to_id: member2, due_date: dayFromToday(3), priority: 'medium' },
      { name: titles.fail, assigned_to_id: member2, due_date: dayFromToday(4), priority: 'low' },
      { name: titles.mine, assigned_to_id: manager1, due_date: dayFromToday(2), priority: 'low' },
    ],
  });
  const member1Api = await apiSignIn(page.request, 'team_member', 'member1@example.com');
  const member2Api = await apiSignIn(page.request, 'team_member', 'member2@example.com');
  const byName = (name: string) => findByName(created.subtasks, name).id;
  await member1Api.patch(`/api/subtasks/${byName(titles.approve)}/`, { status: 'pending_approval' });
  await member2Api.patch(`/api/subtasks/${byName(titles.decline)}/`, { status: 'pending_approval' });
  await member2Api.patch(`/api/subtasks/${byName(titles.fail)}/`, { status: 'pending_approval' });
  return titles;
}

const card = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^${name}`) });
const panel = (page: Page) => page.getByRole('region').filter({ has: page.getByRole('table') });

test('the dashboard counts, opens the three tables, and approves and declines at once', async ({ page }) => {
  const stamp = Date.now().toString(36);
  const titles = await seedPendingWork(page, stamp);
  await signIn(page, 'manager');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Dashboard - Welcome MGR-\d{4}$/);

  const api = await pageSession(page);
  const [pending, dueToday, mine, projects] = await Promise.all([
    api.get<ApiSubtask[]>('/api/pending-approvals/'),
    api.get<ApiSubtask[]>('/api/tasks-due-today/'),
    api.get<ApiSubtask[]>('/api/subtasks/?assigned_to=me'),
    api.get<ApiProject[]>('/api/projects/'),
  ]);
  await expect(page.getByRole('link', { name: /^Ongoing Projects/ })).toContainText(String(projects.filter((project) => project.status !== 'completed').length));
  await expect(card(page, 'Major Tasks Today')).toContainText(String(dueToday.length));
  await expect(card(page, 'Pending Approvals')).toContainText(String(pending.length));
  await expect(card(page, 'My Tasks')).toContainText(String(mine.length));

  await card(page, 'Major Tasks Today').click();
  await expect(card(page, 'Major Tasks Today')).toHaveAttribute('aria-expanded', 'true');
  await expect(panel(page).getByRole('columnheader')).toHaveText(['Project', 'Major Task', 'Subtask Title', 'Assignee', 'Due Date', 'Status']);
  await expect(panel(page).getByRole('row').filter({ hasText: titles.approve })).toContainText(DEMO_NAMES['member1@example.com']);
  await saveScreenshot(page, 'manager-dashboard-today');

  await card(page, 'My Tasks').click();
  await expect(card(page, 'Major Tasks Today')).toHaveAttribute('aria-expanded', 'false');
  // A manager who is a subtask's assignee may send it for approval (issue 23, item 1).
  await expect(panel(page).getByRole('columnheader')).toHaveText(['Project', 'Major Task', 'Subtask Title', 'Due Date', 'Status', 'Action']);
  await expect(panel(page).getByRole('row').filter({ hasText: titles.mine })).toContainText('Riverside Apartments');
  await card(page, 'My Tasks').click();
  await expect(panel(page)).toHaveCount(0);

  await card(page, 'Pending Approvals').click();
  const table = panel(page);
  await expect(table.getByRole('columnheader')).toHaveText(['Project', 'Major Task', 'Subtask Title', 'Team Member', 'Due Date', 'Action']);
  const row = (title: string) => table.getByRole('row').filter({ hasText: title });
  await expect(row(titles.decline)).toContainText(DEMO_NAMES['member2@example.com']);
  await saveScreenshot(page, 'manager-dashboard-approvals');

  await row(titles.approve).getByRole('button', { name: 'Approve Task' }).click();
  await expect(page.getByText('Task approved successfully!')).toBeVisible();
  await expect(row(titles.approve)).toHaveCount(0);
  await expect(card(page, 'Pending Approvals')).toContainText(String(pending.length - 1));
  // Focus was on Approve, which went with its row: it stays in the list (a row below or above), not on <body>.
  await expect(table.locator(':focus')).toHaveCount(1);

  // A failure replaces the success message.
  await page.route('**/api/subtasks/*/', (route) => route.fulfill({ status: 500, json: { detail: 'Down.' } }));
  // Declining asks why; refused, the dialog keeps the reason and says the server's words too.
  const declineDialog = page.getByRole('dialog', { name: 'Decline task' });
  await row(titles.fail).getByRole('button', { name: 'Decline Task' }).click();
  await declineDialog.getByLabel('Reason').fill('Formwork not oiled');
  await declineDialog.getByRole('button', { name: 'Decline Task' }).click();
  await expect(declineDialog.getByRole('alert')).toHaveText('Failed to decline task. Down.');
  await expect(declineDialog.getByLabel('Reason')).toHaveValue('Formwork not oiled');
  await declineDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('alert')).toHaveText('Failed to decline task. Down.');
  await expect(page.getByText('Task approved successfully!')).toHaveCount(0);
  await row(titles.fail).getByRole('button', { name: 'Approve Task' }).click();
  await expect(page.getByRole('alert')).toHaveText('Failed to approve task. Down.');
  await page.unroute('**/api/subtasks/*/');

  await row(titles.decline).getByRole('button', { name: 'Decline Task' }).click();
  await declineDialog.getByLabel('Reason').fill('Rebar spacing wrong at grid C');
  await declineDialog.getByRole('button', { name: 'Decline Task' }).click();
  await expect(page.getByText('Task declined successfully!')).toBeVisible();
  await expect(row(titles.decline)).toHaveCount(0);
  await expect(row(titles.fail)).toHaveCount(1);
  // The dialog's opener went with its row too: focus is back in the list.
  await expect(table.locator(':focus')).toHaveCount(1);

  // The API agrees: approved is completed, declined is back to ongoing, the failed one still waits.
  const after = await api.get<ApiSubtask[]>('/api/subtasks/');
  expect(findByName(after, titles.approve).status).toBe('completed');
  expect(findByName(after, titles.decline).status).toBe('ongoing');
  expect(findByName(after, titles.fail).status).toBe('pending_approval');

  // And so does the Projects screen.
  await page.getByRole('link', { name: /^Ongoing Projects/ }).click();
  await expect(page).toHaveURL('/manager/projects');
  await openProject(page, 'Riverside Apartments');
  await page.getByRole('button', { name: new RegExp(`Approvals ${stamp}`) }).click();
  await expect(page.getByRole('combobox', { name: `Status of ${titles.approve}` })).toHaveValue('completed');
  await expect(page.getByRole('combobox', { name: `Status of ${titles.decline}` })).toHaveValue('ongoing');
  await expect(page.getByRole('combobox', { name: `Status of ${titles.fail}` })).toHaveValue('pending_approval');
});

test('a long approvals list shows 20 rows at a time, Show More brings the rest, and the card counts them all', async ({ page }) => {
  const stamp = `long-${Date.now().toString(36)}`;
  const manager = await apiSignIn(page.request, 'manager');
  const [projects, member1] = await Promise.all([manager.get<ApiProject[]>('/api/projects/'), userId(manager, 'member1@example.com')]);
  const created = await manager.post<ApiMajorTask>('/api/major-tasks/', {
    project_id: findByName(projects, 'Riverside Apartments').id,
    name: `Long list ${stamp}`,
    description: '',
    subtasks: Array.from({ length: 21 }, (_, index) => ({ name: `${stamp} #${index + 1}`, assigned_to_id: member1, due_date: dayFromToday(5 + index), priority: 'low' })),
  });
  const member1Api = await apiSignIn(page.request, 'team_member', 'member1@example.com');
  await Promise.all(created.subtasks.map((subtask) => member1Api.patch(`/api/subtasks/${subtask.id}/`, { status: 'pending_approval' })));

  const requests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/pending-approvals/')) requests.push(new URL(request.url()).search);
  });
  await signIn(page, 'manager');
  const pending = await (await pageSession(page)).get<ApiSubtask[]>('/api/pending-approvals/');
  expect(pending.length).toBeGreaterThan(20);
  await expect(card(page, 'Pending Approvals')).toContainText(String(pending.length));
  // The cards come from one summary. The list itself is asked for a page at a time only: its first
  // page when the card is pointed at or opened, or ahead once the page is idle (so it opens offline),
  // which on a busy machine can come before this line.
  expect(requests.filter((search) => search !== '?limit=20&offset=0')).toEqual([]);

  await card(page, 'Pending Approvals').click();
  const rows = panel(page).getByRole('row');
  await expect(rows).toHaveCount(21);
  // Its first page, never the whole list (pointing at the card fetched it ahead, opening may again).
  expect([...new Set(requests)]).toEqual(['?limit=20&offset=0']);
  await showMoreUntilVisible(page.getByRole('region', { name: 'Pending Approvals' }), rows.filter({ hasText: `${stamp} #21` }));
  await expect(rows).toHaveCount(Math.min(pending.length, 40) + 1);
  await saveScreenshot(page, 'manager-dashboard-approvals-more');
  await page.getByRole('button', { name: 'Show Less' }).click();
  await expect(rows).toHaveCount(21);
});

test('My Tasks lists my subtasks and the approvals waiting for me', async ({ page }) => {
  const titles = await seedPendingWork(page, `mine-${Date.now().toString(36)}`);
  // The Decline dialog's code cannot come (the signal went before this device held it).
  const declineCode = '**/assets/decline-form-*.js';
  await page.route(declineCode, (route) => route.abort('internetdisconnected'));
  await signIn(page, 'manager');
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'My Tasks' }).click();
  const assigned = page.getByRole('table', { name: 'Assigned Tasks' });
  const approvals = page.getByRole('table', { name: 'Pending Approvals' });
  await expect(assigned.getByRole('row').filter({ hasText: titles.mine })).toContainText('Ongoing');
  await approvals.getByRole('row').filter({ hasText: titles.approve }).getByRole('button', { name: 'Approve Task' }).click();
  await expect(page.getByText('Task approved successfully!')).toBeVisible();
  await expect(approvals.getByRole('row').filter({ hasText: titles.approve })).toHaveCount(0);
  await saveScreenshot(page, 'manager-my-tasks');

  // Pressing Decline says so in place, with Retry, and the page stays; back in reach, Retry opens the dialog.
  const declineRow = approvals.getByRole('row').filter({ hasText: titles.decline });
  await declineRow.getByRole('button', { name: 'Decline Task' }).click();
  const notHere = declineRow.getByRole('alert');
  await expect(notHere).toHaveText(/This part of SiteBoard has not reached this device yet\. Try again when you have a signal\./);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('My Tasks');
  await page.unroute(declineCode);
  await notHere.getByRole('button', { name: 'Retry' }).click();
  const declineDialog = page.getByRole('dialog', { name: 'Decline task' });
  await expect(declineDialog.getByLabel('Reason')).toBeVisible();
  await declineDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(notHere).toHaveCount(0);
});
