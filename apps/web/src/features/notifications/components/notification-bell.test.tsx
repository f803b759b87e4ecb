import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectAs, loginAs, type TestUser } from '../../../../../server/src/test/factories';
import { insertProject } from '../../../../../server/src/test/work-factories';
import { startApiServer, type ApiServer } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { addLiveNotification, clearLiveNotifications } from '../live-notifications';
import { NotificationBell } from './notification-bell';

let server: ApiServer;
let member: TestUser;
let assignedMessage: string;

beforeAll(async () => {
  server = await startApiServer();
  const crew = await server.createCrew();
  const { company, manager } = crew;
  member = crew.member;
  const project = await insertProject(server.database.db, company.id, { managerId: manager.id, name: 'Bridge' });
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
