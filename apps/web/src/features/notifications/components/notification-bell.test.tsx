import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveNotification } from '@siteboard/shared';
import { injectAs, loginAs, type TestUser } from '../../../../../server/src/test/factories';
import { insertProject } from '../../../../../server/src/test/work-factories';
import { startApiServer, type ApiServer } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { addLiveNotification, clearLiveNotifications } from '../live-notifications';
import { NotificationBell } from './notification-bell';

let server: ApiServer;
let member: TestUser;
let manager: TestUser;
let projectId: number;
let assignedMessage: string;

beforeAll(async () => {
  server = await startApiServer();
  const crew = await server.createCrew();
  const { company } = crew;
  ({ manager, member } = crew);
  const project = await insertProject(server.database.db, company.id, { managerId: manager.id, name: 'Bridge' });
  projectId = project.id;
  const { access } = await loginAs(server.app, manager);
  const created = await injectAs(server.app, access, {
    method: 'POST',
    url: '/api/major-tasks/',
    payload: { project_id: project.id, name: 'Deck', subtasks: [{ name: 'Pour footing B', assigned_to_id: member.id, due_date: '2030-05-01', priority: 'high' }] },
  });
  expect(created.statusCode).toBe(201);
  await server.signIn(member);
  const notifications = await injectAs(server.app, (await loginAs(server.app, member)).access, { method: 'GET', url: `/api/notifications/?email=${encodeURIComponent(member.email)}` });
  assignedMessage = notifications.json()[0].notification.message;
});
afterAll(() => server.close());

const badge = () => screen.queryByTestId('notification-badge');

describe('the notification bell', () => {

  it('counts an unread notification once, merging a live push with its API twin, and adds a new push', async () => {
    clearLiveNotifications();
    renderScreen(<NotificationBell email={member.email} />);
    await waitFor(() => expect(badge()).toHaveTextContent('1'));

    // The live copy of the same notification (other spacing, other case): one item, not two.
    act(() => {
      addLiveNotification({ id: 9001, type: 'task_assignment', message: `  ${assignedMessage.toUpperCase()} `, created_by: 'someone', timestamp: new Date().toISOString() });
    });
    expect(badge()).toHaveTextContent('1');

    act(() => {
      addLiveNotification({ id: 9002, type: 'task_approved', message: 'A push the API has not listed yet', created_by: 'someone', timestamp: new Date().toISOString() });
    });
    expect(badge()).toHaveTextContent('2');

    // The same push delivered twice counts once.
    act(() => {
      addLiveNotification({ id: 9002, type: 'task_approved', message: 'A push the API has not listed yet', created_by: 'someone', timestamp: new Date().toISOString() });
    });
    expect(badge()).toHaveTextContent('2');
  });

  it('opening it lists the unread items, marks them read on the server, and clears the badge', async () => {
    clearLiveNotifications();
    renderScreen(<NotificationBell email={member.email} />);
    await waitFor(() => expect(badge()).toHaveTextContent('1'));

    await userEvent.click(screen.getByTestId('notification-bell'));
    const popover = await screen.findByRole('dialog', { name: 'Notifications' });
    await waitFor(() => expect(within(popover).getByRole('tab', { name: 'Unread (1)' })).toBeInTheDocument());
    expect(within(popover).getByText(assignedMessage)).toBeInTheDocument();
    await waitFor(() => expect(badge()).toBeNull());

    const { access } = await loginAs(server.app, member);
    const records = (await injectAs(server.app, access, { method: 'GET', url: `/api/notifications/?email=${encodeURIComponent(member.email)}` })).json();
    expect(records.every((record: { is_read: boolean }) => record.is_read)).toBe(true);
  });

  it('"View All Notifications" opens the modal list, closed by Close', async () => {
    renderScreen(<NotificationBell email={member.email} />);
    await userEvent.click(screen.getByTestId('notification-bell'));
    await userEvent.click(await screen.findByRole('button', { name: 'View All Notifications' }));
    const modal = await screen.findByRole('dialog', { name: 'All Notifications' });
    expect(await within(modal).findByText(assignedMessage)).toBeInTheDocument();
    await userEvent.click(within(modal).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'All Notifications' })).toBeNull());
  });
});

describe('a notification about a subtask', () => {
  it('opens the subtask a notification is about', async () => {
    clearLiveNotifications();
    const { router } = renderScreen(<NotificationBell email={member.email} />);
    await userEvent.click(await screen.findByTestId('notification-bell'));
    // Read already by the tests above: it is on the Read tab.
    await userEvent.click(await screen.findByRole('tab', { name: /^Read/ }));
    await userEvent.click(await screen.findByRole('link', { name: assignedMessage }));
    expect(router.state.location.search).toMatch(/^\?subtask=\d+$/);
    expect(screen.queryByRole('link', { name: assignedMessage })).toBeNull();
  });
});

interface Record {
  id: number;
  is_read: boolean;
  notification: { type: LiveNotification['type']; message: string };
}

const memberRecords = async (): Promise<Record[]> => {
  const { access } = await loginAs(server.app, member);
  return (await injectAs(server.app, access, { method: 'GET', url: `/api/notifications/?email=${encodeURIComponent(member.email)}` })).json();
};

describe('marking notifications read one by one', () => {
  it('a push that arrives while the bell is open is marked read by its button, or by opening it, and only that one', async () => {
    clearLiveNotifications();
    const { router } = renderScreen(<NotificationBell email={member.email} />);
    // Opening marks everything read at once (spec): nothing is left unread.
    await userEvent.click(await screen.findByTestId('notification-bell'));
    const popover = await screen.findByRole('dialog', { name: 'Notifications' });
    await waitFor(async () => expect((await memberRecords()).every((record) => record.is_read)).toBe(true));

    // While it is open, two new assignments arrive, on the server and as pushes.
    const { access } = await loginAs(server.app, manager);
    const created = await injectAs(server.app, access, {
      method: 'POST',
      url: '/api/major-tasks/',
      payload: {
        project_id: projectId,
        name: 'Piers',
        subtasks: [
          { name: 'Cast pier 1', assigned_to_id: member.id, due_date: '2030-05-02', priority: 'low' },
          { name: 'Cast pier 2', assigned_to_id: member.id, due_date: '2030-05-03', priority: 'low' },
        ],
      },
    });
    expect(created.statusCode).toBe(201);
    const [first, second] = (await memberRecords()).filter((record) => !record.is_read);
    expect(second).toBeDefined();
    act(() => {
      for (const record of [first!, second!]) addLiveNotification({ id: record.id, ...record.notification, created_by: manager.email, timestamp: new Date().toISOString() });
    });
    await waitFor(() => expect(within(popover).getByRole('tab', { name: 'Unread (2)' })).toBeInTheDocument());
    expect(badge()).toHaveTextContent('2');

    await userEvent.click(within(popover).getByRole('button', { name: `Mark as read: ${first!.notification.message}` }));
    await waitFor(() => expect(within(popover).getByRole('tab', { name: 'Unread (1)' })).toBeInTheDocument());
    expect(badge()).toHaveTextContent('1');
    await waitFor(async () => expect((await memberRecords()).filter((record) => !record.is_read).map((record) => record.id)).toEqual([second!.id]));

    // Opening the other one marks it read too.
    await userEvent.click(within(popover).getByRole('link', { name: second!.notification.message }));
    expect(router.state.location.search).toMatch(/^\?subtask=\d+$/);
    await waitFor(async () => expect((await memberRecords()).every((record) => record.is_read)).toBe(true));
    await waitFor(() => expect(badge()).toBeNull());
  });
});
