import { expect, test, type APIRequestContext, type Page, type WebSocketRoute } from '../test';
import { assignWork, apiSignIn, dayFromToday } from '../api-helpers';
import { DEMO, DEMO_NAMES, demoLabel, expectNoSeriousViolations, openInApp, openProject, readAllNotifications, type Role, saveScreenshot, signIn } from '../fixtures';

const bell = (page: Page) => page.getByTestId('notification-bell');
const badge = (page: Page) => page.getByTestId('notification-badge');

async function signedInPage(newPage: () => Promise<Page>, role: Role) {
  const page = await newPage();
  await signIn(page, role);
  return page;
}


/** The manager assigns member1 a new subtask through the API. */
async function assignToMember(request: APIRequestContext, title: string) {
  await assignWork(await apiSignIn(request, 'manager'), `Live ${title}`, [{ name: title, assignee: 'member1@example.com', dueInDays: 2, priority: 'high' }]);
}

test('a subtask travels manager → team member → manager → team member, each badge rising live', async ({ newPage, page: setup }) => {
  const stamp = Date.now().toString(36);
  const title = `Check the rebar ${stamp}`;
  // The server's first sweep (5 s after it starts) tells the manager of the demo's overdue work: wait
  // for it, so the badge below counts only what this journey does.
  const managerApi = await apiSignIn(setup.request, 'manager');
  await expect
    .poll(async () => (await managerApi.get<{ notification: { type: string } }[]>('/api/notifications/')).some((item) => item.notification.type === 'task_overdue'), { timeout: 20_000 })
    .toBe(true);
  const manager = await signedInPage(newPage, 'manager');
  const member = await signedInPage(newPage, 'team_member');
  await readAllNotifications(manager);
  await readAllNotifications(member);

  await assignToMember(setup.request, title);

  // No reload anywhere below: every change arrives over the live connection.
  await expect(badge(member)).toHaveText('1');
  await bell(member).click();
  const assigned = member.getByTestId('notification-item').filter({ hasText: title });
  await expect(assigned).toHaveAttribute('data-type', 'task_assignment');
  await expect(assigned).toHaveAttribute('data-highlighted', 'true');
  // The manager by name, not by e-mail address (issue 42).
  await expect(assigned).toContainText(`${DEMO_NAMES[DEMO.accounts.manager]} assigned you '${title}'`);
  await saveScreenshot(member, 'notifications-open-desktop');
  // Opening shows; reading is the reader's choice.
  await expect(badge(member)).toHaveText('1');
  await member.getByRole('button', { name: `Mark as read: ${await assigned.getByRole('link').innerText()}` }).click();
  await expect(badge(member)).toBeHidden();
  await member.keyboard.press('Escape');

  await member.getByRole('link', { name: 'My Tasks' }).click();
  const row = member.getByRole('row').filter({ hasText: title });
  await row.getByRole('button', { name: 'Send for Approval' }).click();
  await member.getByRole('dialog', { name: 'Send for approval' }).getByRole('button', { name: 'Send for Approval' }).click();
  await expect(member.getByText('Task sent for approval!')).toBeVisible();
  await expect(row.getByRole('button', { name: 'Send for Approval' })).toHaveCount(0);

  await expect(badge(manager)).toHaveText('1');
  await manager.getByRole('button', { name: /^Pending Approvals/ }).click();
  await manager.getByRole('row').filter({ hasText: title }).getByRole('button', { name: 'Approve Task' }).click();
  await expect(manager.getByText('Task approved successfully!')).toBeVisible();

  await expect(badge(member)).toHaveText('1');
  await bell(member).click();
  const approved = member.getByTestId('notification-item').filter({ hasText: title }).and(member.locator('[data-type="task_approved"]'));
  await expect(approved).toBeVisible();
  await member.getByRole('button', { name: 'View All Notifications' }).click();
  const dialog = member.getByRole('dialog', { name: 'All Notifications' });
  await expect(dialog.getByTestId('notification-item').filter({ hasText: title })).toHaveCount(2);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});

test('after the server drops the live connection, the client reconnects and the next notification arrives', async ({ page }) => {
  const connections: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/ws\/notifications\//, (socket) => {
    socket.connectToServer();
    connections.push(socket);
  });
  const consoleLines: string[] = [];
  page.on('console', (message) => consoleLines.push(message.text()));
  await signIn(page, 'team_member');
  await readAllNotifications(page);
  await expect.poll(() => connections.length).toBe(1);

  // What a server restart looks like to the page: the connection closes with a non-normal code.
  await connections[0].close({ code: 1012, reason: 'Service restart' });
  await expect.poll(() => connections.length, { timeout: 10_000 }).toBe(2);
  // The access token rides as a subprotocol: neither the socket's URL nor the console shows it.
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();
  for (const connection of connections) expect(connection.url()).not.toContain('token');
  expect(consoleLines.filter((line) => line.includes(token!))).toEqual([]);

  const title = `After the drop ${Date.now().toString(36)}`;
  await assignToMember(page.request, title);
  await expect(badge(page)).toHaveText('1');
  await bell(page).click();
  await expect(page.getByTestId('notification-item').filter({ hasText: title })).toBeVisible();
});

async function checkTeamMemberScreens(page: Page, suffix: string) {
  await signIn(page, 'team_member');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Dashboard - Welcome /);
  await page.getByRole('button', { name: /^My Tasks/ }).click();
  await expect(page.getByRole('columnheader', { name: 'Assignee' })).toHaveCount(0);
  await expectNoSeriousViolations(page);
  await saveScreenshot(page, `team-member-dashboard-${suffix}`);

  await openInApp(page, '/team-member/projects');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Projects - Welcome /);
  await openProject(page, 'Riverside Apartments');
  await page.getByRole('button', { name: /Framing/ }).click();
  await page.getByRole('button', { name: 'Create Subtask' }).click();
  await expect(page.getByText('Add New Subtask')).toBeVisible();
  await expectNoSeriousViolations(page);
  await saveScreenshot(page, `team-member-projects-${suffix}`);

  await openInApp(page, '/team-member');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Dashboard - Welcome /);
  await bell(page).click();
  await expect(page.getByRole('tab', { name: /^Read/ })).toBeVisible();
  await expectNoSeriousViolations(page);
  // Only the viewport: a full-page shot resizes the window, and a resize closes the dropdown (spec §2).
  await page.screenshot({ path: test.info().outputPath(`notifications-bell-${suffix}.png`) });
  await page.getByRole('button', { name: 'View All Notifications' }).click();
  await expect(page.getByRole('dialog', { name: 'All Notifications' })).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.screenshot({ path: test.info().outputPath(`notifications-all-${suffix}.png`) });
}

test('axe and screenshots: the team-member dashboard, projects and bell', async ({ page }) => {
  await checkTeamMemberScreens(page, 'desktop');
});

test('axe and screenshots on a phone @phone', async ({ page }) => {
  await checkTeamMemberScreens(page, 'phone');
});

test('an expired session on a team-member screen goes to the login of the user’s company', async ({ page }) => {
  await signIn(page, 'team_member');
  const companyId = await page.evaluate(() => localStorage.getItem('company_id'));
  expect(companyId).toMatch(/^\d+$/);
  await page.evaluate(() => {
    localStorage.setItem('token', 'expired');
    localStorage.setItem('refreshToken', 'expired');
  });
  // Whichever asks the server first finds the session dead: this click, or a list that a live
  // notification (from the journeys before) makes refresh in the background — then the link is gone.
  await page
    .getByRole('link', { name: 'Projects', exact: true })
    .click({ timeout: 5_000 })
    .catch(() => undefined);
  await expect(page).toHaveURL(`/login?companyId=${companyId}`);
});

test('a team member creates a subtask under a major task of an ongoing project', async ({ page }) => {
  await signIn(page, 'team_member');
  await page.getByRole('link', { name: 'Create Task', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create Task');
  await page.getByLabel('Project').selectOption({ label: 'Riverside Apartments' });
  await page.getByLabel('Major Task').selectOption({ label: 'Framing' });
  const title = `Sweep the deck ${Date.now().toString(36)}`;
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Assignee', { exact: true }).selectOption({ label: demoLabel('member1@example.com') });
  await page.getByLabel('Due Date').fill(dayFromToday(5));
  await expectNoSeriousViolations(page);
  await page.getByRole('button', { name: 'Submit Subtask' }).click();
  await expect(page.getByText('Subtask created successfully!')).toBeVisible();

  await page.getByRole('link', { name: 'My Tasks', exact: true }).click();
  await expect(page.getByRole('row').filter({ hasText: title }).getByRole('button', { name: 'Send for Approval' })).toBeVisible();
});
