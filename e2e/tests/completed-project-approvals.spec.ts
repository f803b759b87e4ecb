import { expect, test, type Page } from '../test';
import { apiSignIn, dayFromToday, pageSession, userId, type ApiMajorTask, type ApiProject, type ApiSubtask } from '../api-helpers';
import { DEMO, saveScreenshot, signIn } from '../fixtures';

const card = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^${name}`) });
const projectRow = (page: Page, list: 'Ongoing Projects' | 'Completed Projects', name: string) =>
  page.getByRole('table', { name: list }).getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

test('completing a project asks about its unfinished work, approves nothing, and the closed work leaves the manager’s list and count', async ({ page }) => {
  const stamp = Date.now().toString(36);
  const projectName = `Stuck approvals ${stamp}`;
  const subtaskName = `Pour the ramp ${stamp}`;

  // A project of the manager's, with one subtask its assignee has sent for approval.
  const admin = await apiSignIn(page.request, 'admin');
  const manager = await apiSignIn(page.request, 'manager');
  const project = await admin.post<ApiProject>('/api/projects/', {
    name: projectName,
    description: '',
    start_date: dayFromToday(-5),
    end_date: dayFromToday(60),
    manager_id: await userId(admin, DEMO.accounts.manager),
    status: 'ongoing',
  });
  const created = await manager.post<ApiMajorTask>('/api/major-tasks/', {
    project_id: project.id,
    name: `Ramp ${stamp}`,
    description: '',
    subtasks: [{ name: subtaskName, assigned_to_id: await userId(manager, 'member1@example.com'), due_date: dayFromToday(3), priority: 'medium' }],
  });
  const member = await apiSignIn(page.request, 'team_member', 'member1@example.com');
  await member.patch(`/api/subtasks/${created.subtasks[0]!.id}/`, { status: 'pending_approval' });
  const pendingBefore = await manager.get<ApiSubtask[]>('/api/pending-approvals/');
  expect(pendingBefore.map((subtask) => subtask.name)).toContain(subtaskName);

  // The admin completes the project: asked first, told how much is unfinished and that nothing is approved, and confirms.
  await signIn(page, 'admin');
  const row = projectRow(page, 'Ongoing Projects', projectName);
  await row.getByRole('button', { name: `Edit ${projectName}` }).click();
  await page.getByRole('row').filter({ has: page.getByRole('button', { name: `Save ${projectName}` }) }).getByRole('combobox', { name: 'Status' }).selectOption('completed');
  await page.getByRole('button', { name: `Save ${projectName}` }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Complete project?' });
  await expect(dialog).toContainText('1 subtask is unfinished. Completing the project approves nothing');
  await saveScreenshot(page, 'admin-complete-project-confirm');
  await dialog.getByRole('button', { name: 'Complete project' }).click();
  await expect(page.getByText('Project updated successfully!')).toBeVisible();
  await expect(projectRow(page, 'Completed Projects', projectName)).toBeVisible();

  // The manager no longer sees it waiting, in the list or in the count.
  await signIn(page, 'manager');
  const pendingAfter = await (await pageSession(page)).get<ApiSubtask[]>('/api/pending-approvals/');
  expect(pendingAfter.map((subtask) => subtask.name)).not.toContain(subtaskName);
  await expect(card(page, 'Pending Approvals')).toContainText(String(pendingBefore.length - 1));
  await card(page, 'Pending Approvals').click();
  const approvals = page.getByRole('region', { name: 'Pending Approvals' });
  await expect(approvals.getByRole('table')).toBeVisible();
  await expect(approvals.getByRole('row').filter({ hasText: subtaskName })).toHaveCount(0);
  // Nobody approved it: it is still pending approval, closed unfinished.
  const closed = await manager.get<ApiSubtask & { closed_unfinished_at: string | null }>(`/api/subtasks/${created.subtasks[0]!.id}/`);
  expect(closed.status).toBe('pending_approval');
  expect(closed.closed_unfinished_at).not.toBeNull();
});
