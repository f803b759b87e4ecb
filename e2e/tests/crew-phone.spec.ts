import { expect, test } from '../test';
import { assignWork, apiSignIn, userId } from '../api-helpers';
import { DEMO, openProject, saveScreenshot, signIn } from '../fixtures';

/**
 * A crew member on a phone: the manager assigns work, the member's dashboard shows their tasks
 * before anything else at 390 × 844, and the notification leads straight to the subtask.
 */
test('on a phone the member sees their task above the fold and the notification opens it @phone', async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const email = `crew.${stamp}@example.com`;
  const title = `Brace the trench wall ${stamp}`;
  const admin = await apiSignIn(request, 'admin');
  await admin.post('/api/users/', { email, password: DEMO.password, role: 'team_member', manager_id: await userId(admin, DEMO.accounts.manager), full_name: 'Ana Ortiz' });
  const manager = await apiSignIn(request, 'manager');
  const subtaskId = (await assignWork(manager, `Trench ${stamp}`, [{ name: title, assignee: email, dueInDays: 1, priority: 'high' }]))[title];

  // The app's policy allows styles from its own files only: nothing on the way may be refused.
  const refused: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy')) refused.push(message.text());
  });
  await signIn(page, 'team_member', email);
  // Their tasks come first: the row is on screen without scrolling.
  const row = page.getByRole('row').filter({ hasText: title }).or(page.getByRole('listitem').filter({ hasText: title })).first();
  await expect(row).toBeVisible();
  const box = await row.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.y + box!.height).toBeLessThanOrEqual(844);
  await expect(row.getByRole('button', { name: 'Send for Approval' })).toBeVisible();
  // The welcome's user code stays on one line.
  const code = page.getByRole('heading', { level: 1 }).locator('span', { hasText: /^TM-\d{4}$/ });
  expect((await code.boundingBox())!.height).toBeLessThan(60);
  await saveScreenshot(page, 'crew-phone-dashboard');

  // The notification names the work and opens it (a due-tomorrow reminder may arrive beside it).
  await expect(page.getByTestId('notification-badge')).toHaveText(/^[12]$/);
  await page.getByTestId('notification-bell').click();
  await page.getByTestId('notification-item').filter({ hasText: `assigned you '${title}'` }).getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`[?&]subtask=${subtaskId}(&|$)`));
  await expect(page.getByRole('dialog', { name: title })).toBeVisible();
  // The page behind the dialog is locked: no scroll bar to drag, nothing to scroll.
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: title })).toBeHidden();
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe('hidden');

  // In the project browser too, their own task is one tap from Send for Approval.
  await page.goto('/team-member/projects');
  await openProject(page, 'Riverside Apartments');
  await page.getByRole('button', { name: new RegExp(`Trench ${stamp}`) }).click();
  const inProject = page.getByRole('row').filter({ hasText: title }).or(page.getByRole('listitem').filter({ hasText: title })).last();
  await inProject.getByRole('button', { name: 'Send for Approval' }).click();
  const send = page.getByRole('dialog', { name: 'Send for approval' });
  await send.getByRole('button', { name: 'Send for Approval' }).click();
  await expect(send).toBeHidden();
  await expect(page.getByText('Task sent for approval!')).toBeVisible();
  await expect(inProject.getByRole('button', { name: 'Send for Approval' })).toHaveCount(0);
  expect(refused).toEqual([]);
});
