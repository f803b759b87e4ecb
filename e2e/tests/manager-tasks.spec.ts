import { expect, test, type Locator, type Page } from '../test';
import { dayFromToday, findByName, pageSession, type ApiProject } from '../api-helpers';
import { DEMO, DEMO_NAMES, demoLabel, saveScreenshot, signIn, openProject, type DemoEmail } from '../fixtures';

const PROJECT = 'Riverside Apartments';

async function chooseAssignee(row: Locator, email: DemoEmail) {
  await row.getByLabel('Search assignee').fill(email.split('@')[0]!);
  await row.getByLabel('Assignee', { exact: true }).selectOption({ label: demoLabel(email) });
}

async function fillSubtask(row: Locator, input: { title: string; assignee: DemoEmail; due: string; priority: 'Low' | 'Medium' | 'High' }) {
  await row.getByLabel('Title').fill(input.title);
  await chooseAssignee(row, input.assignee);
  await row.getByLabel('Due Date').fill(input.due);
  await row.getByLabel('Priority').selectOption({ label: input.priority });
}

const majorTaskButton = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(name) });

test('a manager creates a major task with three subtasks and manages them in Projects', async ({ page }) => {
  const stamp = Date.now().toString(36);
  const taskName = `Roofing ${stamp}`;
  const titles = [`Lay roof membrane ${stamp}`, `Fit gutters ${stamp}`, `Inspect flashing ${stamp}`];
  await signIn(page, 'manager');
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Create Task' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Create Major Task' })).toBeVisible();

  // Every rule of spec §5, each message on its field.
  await page.getByRole('button', { name: 'Create Major Task' }).click();
  await expect(page.getByLabel('Project')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Select a project.')).toBeVisible();
  await expect(page.getByText('Name is required.')).toBeVisible();
  const first = page.getByRole('group', { name: 'Subtask 1' });
  await expect(first.getByText('Title is required.')).toBeVisible();
  await expect(first.getByText('Select an assignee.')).toBeVisible();
  await expect(first.getByText('Due date is required.')).toBeVisible();
  await saveScreenshot(page, 'manager-create-task-errors');

  // Only projects that are not completed can take a task.
  const projectOptions = await page.getByLabel('Project').locator('option').allTextContents();
  expect(projectOptions).toContain(PROJECT);
  expect(projectOptions).toContain('Northgate School Extension');
  expect(projectOptions).not.toContain('Old Mill Renovation');

  await page.getByLabel('Project').selectOption({ label: PROJECT });
  await page.getByLabel('Major Task Name').fill(taskName);
  await page.getByLabel('Description', { exact: true }).fill('Weather-tight roof before winter.');

  // The assignee list: managers and team members only; typing clears the choice; nothing matches → the empty text.
  const assignees = await first.getByLabel('Assignee', { exact: true }).locator('option').allTextContents();
  expect(assignees).toEqual(expect.arrayContaining(['Select Assignee', demoLabel(DEMO.accounts.manager), demoLabel(DEMO.accounts.team_member)]));
  expect(assignees.filter((label) => label.includes(DEMO.accounts.admin))).toEqual([]);
  await chooseAssignee(first, 'member1@example.com');
  await first.getByLabel('Search assignee').fill('MEMBER');
  await expect(first.getByLabel('Assignee', { exact: true })).toHaveValue('');
  await first.getByLabel('Search assignee').fill('nobody-by-that-name');
  await expect(first.getByText('No assignees available.')).toBeVisible();

  await fillSubtask(first, { title: titles[0]!, assignee: 'member1@example.com', due: dayFromToday(5), priority: 'High' });
  await page.getByRole('button', { name: 'Add Subtask' }).click();
  await fillSubtask(page.getByRole('group', { name: 'Subtask 2' }), { title: titles[1]!, assignee: 'member2@example.com', due: dayFromToday(9), priority: 'High' });
  await page.getByRole('button', { name: 'Add Subtask' }).click();
  await page.getByRole('button', { name: 'Add Subtask' }).click();
  await page.getByRole('button', { name: 'Remove Subtask 4' }).click();
  await expect(page.getByRole('group', { name: 'Subtask 4' })).toHaveCount(0);
  await fillSubtask(page.getByRole('group', { name: 'Subtask 3' }), { title: titles[2]!, assignee: 'member1@example.com', due: dayFromToday(12), priority: 'Low' });
  await saveScreenshot(page, 'manager-create-task');
  await page.getByRole('button', { name: 'Create Major Task' }).click();
  await expect(page.getByText('Major task and subtasks created successfully!')).toBeVisible();
  await expect(page.getByLabel('Major Task Name')).toHaveValue('');

  // The API has the task with its three subtasks, due on the latest of their dates.
  const api = await pageSession(page);
  const projects = await api.get<ApiProject[]>('/api/projects/?expand=major_tasks');
  const created = findByName(findByName(projects, PROJECT).major_tasks, taskName);
  expect(created.subtasks.map((subtask) => [subtask.name, subtask.assigned_to?.email, subtask.priority, subtask.status])).toEqual([
    [titles[0], 'member1@example.com', 'high', 'ongoing'],
    [titles[1], 'member2@example.com', 'high', 'ongoing'],
    [titles[2], 'member1@example.com', 'low', 'ongoing'],
  ]);

  // Projects: a page of ten projects with their tasks is one call, never a call per task; people are searched only once a subtask form opens.
  const calls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) calls.push(url.pathname + url.search);
  });
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Projects' }).click();
  await openProject(page, PROJECT);
  const task = majorTaskButton(page, taskName);
  await expect(task).toContainText('2 High');
  await expect(task).toContainText('0 Medium');
  await expect(task).toContainText('1 Low');
  await expect(task).toContainText('Progress: 0/3');
  await task.click();
  await expect(task).toHaveAttribute('aria-expanded', 'true');
  const details = page.getByRole('region', { name: 'Details' }).last();
  await expect(details).toContainText('Created By');
  await expect(details).toContainText(DEMO_NAMES[DEMO.accounts.manager]);
  await expect(details).toContainText('Weather-tight roof before winter.');
  const subtasks = page.getByRole('table', { name: 'Subtasks' }).last();
  await expect(subtasks.getByRole('columnheader')).toHaveText(['Title', 'Assignee', 'Due Date', 'Priority', 'Status']);
  await expect(subtasks.getByRole('row')).toHaveCount(4);
  // Pages of projects (the first, then the search's), one page of the opened project's major tasks
  // and one of the opened task's subtasks: never the project's whole tree, never a request per task.
  const projectCalls = calls.filter((call) => call.startsWith('/api/projects/')).map((call) => new URL(call, 'http://x'));
  const opens = projectCalls.filter((url) => url.pathname !== '/api/projects/');
  expect(opens.map((url) => url.pathname.replace(/\d+/, '{id}'))).toEqual(['/api/projects/{id}/major-tasks/', '/api/projects/{id}/subtasks/']);
  expect(opens.map((url) => url.searchParams.get('expand'))).toEqual([null, null]);
  expect(opens[1]!.searchParams.get('major_task_id')).toBe(String(created.id));
  const pages = projectCalls.filter((url) => url.pathname === '/api/projects/');
  expect(pages.length).toBeLessThanOrEqual(2);
  for (const page of pages) expect(page.searchParams.get('limit')).toBe('10');
  expect(calls.filter((call) => call.startsWith('/api/users/'))).toEqual([]);
  expect(calls.filter((call) => call.startsWith('/api/major-tasks/'))).toEqual([]);
  await saveScreenshot(page, 'manager-projects-task');

  // The manager assigned these, so the status is a dropdown; a change saves at once.
  await page.getByRole('combobox', { name: `Status of ${titles[0]}` }).selectOption('completed');
  await expect(page.getByText('Task status updated successfully!')).toBeVisible();
  await expect(task).toContainText('Progress: 1/3');
  const afterChange = await api.get<ApiProject[]>('/api/projects/?expand=major_tasks');
  expect(findByName(findByName(findByName(afterChange, PROJECT).major_tasks, taskName).subtasks, titles[0]!).status).toBe('completed');

  // A refusal from the server is reported.
  await page.route('**/api/subtasks/*/', (route) => (route.request().method() === 'PATCH' ? route.fulfill({ status: 403, json: { detail: 'No.' } }) : route.fallback()));
  await page.getByRole('combobox', { name: `Status of ${titles[1]}` }).selectOption('pending_approval');
  await expect(page.getByText('Failed to update task status.')).toBeVisible();
  await expect(page.getByRole('combobox', { name: `Status of ${titles[1]}` })).toHaveValue('ongoing');
  await page.unroute('**/api/subtasks/*/');

  // A keyboard user stepping through the closed dropdown saves nothing on the way: Enter (or "Save status") saves the choice.
  const secondStatus = page.getByRole('combobox', { name: `Status of ${titles[1]}` });
  const patches: string[] = [];
  page.on('request', (request) => void (request.method() === 'PATCH' && patches.push(request.url())));
  await secondStatus.focus();
  await page.keyboard.press('ArrowDown');
  await expect(secondStatus).toHaveValue('pending_approval');
  await expect(page.getByRole('button', { name: 'Save status' })).toBeVisible();
  expect(patches).toEqual([]);
  await saveScreenshot(page, 'manager-projects-status-chosen');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Task status updated successfully!')).toBeVisible();
  expect(patches).toHaveLength(1);
  await expect(secondStatus).toBeFocused();

  // A subtask added under the task: required fields first, then success, the form closes and the counts reload.
  await page.getByRole('button', { name: 'Create Subtask' }).last().click();
  const form = page.getByRole('form', { name: 'Add New Subtask' });
  await expect(form.getByLabel('Priority')).toHaveValue('medium');
  await form.getByRole('button', { name: 'Submit Subtask' }).click();
  await expect(form.getByText('Title is required.')).toBeVisible();
  await expect(form.getByText('Select an assignee.')).toBeVisible();
  await saveScreenshot(page, 'manager-projects-add-subtask');
  await form.getByLabel('Title').fill(`Seal skylight ${stamp}`);
  await form.getByLabel('Description (Optional)').fill('Use the grey sealant.');
  await chooseAssignee(form, 'member2@example.com');
  await form.getByLabel('Due Date').fill(dayFromToday(6));
  await form.getByRole('button', { name: 'Submit Subtask' }).click();
  await expect(page.getByText('Subtask created successfully!')).toBeVisible();
  await expect(form).toHaveCount(0);
  await expect(task).toContainText('1 Medium');
  await expect(task).toContainText('Progress: 1/4');
  await expect(subtasks.getByRole('row')).toHaveCount(5);

  // The server's own words when it refuses one.
  await page.getByRole('button', { name: 'Create Subtask' }).last().click();
  await page.route('**/api/subtasks/', (route) => route.fulfill({ status: 400, json: { detail: 'Tasks cannot be created or changed in a completed project.' } }));
  await form.getByLabel('Title').fill('Refused');
  await chooseAssignee(form, 'member2@example.com');
  await form.getByLabel('Due Date').fill(dayFromToday(6));
  await form.getByRole('button', { name: 'Submit Subtask' }).click();
  await expect(form.getByRole('alert')).toHaveText('Tasks cannot be created or changed in a completed project.');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(form).toHaveCount(0);
});

test('a project manager may change only the subtasks they may decide on', async ({ page }) => {
  // Harbour Bridge Repairs is manager2's, and manager2 assigned its subtasks: manager1 sees badges, not dropdowns.
  await signIn(page, 'manager');
  await page.goto('/manager/projects');
  await openProject(page, 'Harbour Bridge Repairs');
  await majorTaskButton(page, 'Inspection').click();
  const subtasks = page.getByRole('table', { name: 'Subtasks' });
  await expect(subtasks.getByRole('row')).toHaveCount(4);
  await expect(subtasks.getByRole('combobox')).toHaveCount(0);
  await expect(subtasks).toContainText('Pending Approval');
  // Adding a subtask is open to any manager while the project is not completed.
  await expect(page.getByRole('button', { name: 'Create Subtask' })).toBeVisible();
});
