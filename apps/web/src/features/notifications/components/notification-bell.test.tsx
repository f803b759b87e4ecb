import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SYSTEM_AUTHOR, type LiveNotification } from '@siteboard/shared';
import { injectAs, loginAs } from '../../../../../server/src/test/factories';
import { insertProject } from '../../../../../server/src/test/work-factories';
import { apiServerForFile } from '../../../test/api-server';
import { setLanguage } from '../../../lib/i18n';
import { STORAGE_KEYS } from '../../../lib/storage';
import { renderScreen } from '../../../test/render';
import { addLiveNotification, clearLiveNotifications } from '../live-notifications';
import { NotificationBell } from './notification-bell';

const api = apiServerForFile(async (server) => {
  const { company, manager, member } = await server.createCrew();
  const project = await insertProject(server.database.db, company.id, { managerId: manager.id, name: 'Bridge' });
  const projectId = project.id;
  const { access } = await loginAs(server.app, manager);
  const created = await injectAs(server.app, access, {
    method: 'POST',
    url: '/api/major-tasks/',
    payload: { project_id: project.id, name: 'Deck', subtasks: [{ name: 'Pour footing B', assigned_to_id: member.id, due_date: '2030-05-01', priority: 'high' }] },
  });
  expect(created.statusCode).toBe(201);
  await server.signIn(member);
  const notifications = await injectAs(server.app, (await loginAs(server.app, member)).access, { method: 'GET', url: `/api/notifications/?email=${encodeURIComponent(member.email)}` });
  const assignedMessage = notifications.json()[0].notification.message;
  return { company, member, manager, projectId, assignedMessage };
});

interface Record {
  id: number;
  is_read: boolean;
  notification: { type: LiveNotification['type']; message: string };
}

const memberRecords = async (): Promise<Record[]> => {
  const { access } = await loginAs(api.server.app, api.member);
  return (await injectAs(api.server.app, access, { method: 'GET', url: `/api/notifications/?email=${encodeURIComponent(api.member.email)}` })).json();
};

const badge = () => screen.queryByTestId('notification-badge');

describe('the notification bell', () => {

  it('counts an unread notification once, merging a live push with its API twin, and adds a new push', async () => {
    clearLiveNotifications();
    renderScreen(<NotificationBell email={api.member.email} />);
    await waitFor(() => expect(badge()).toHaveTextContent('1'));

    // The live copy of the same notification (other spacing, other case): one item, not two.
    act(() => {
      addLiveNotification({ id: 9001, type: 'task_assignment', message: `  ${api.assignedMessage.toUpperCase()} `, created_by: 'someone', timestamp: new Date().toISOString() });
    });
    expect(badge()).toHaveTextContent('1');

    act(() => {
      addLiveNotification({ id: 9002, type: 'task_approved', message: 'A push the API has not listed yet', created_by: 'someone', timestamp: new Date().toISOString() });
    });
    expect(badge()).toHaveTextContent('2');
    // Said to a screen reader as it arrives, in a polite live region.
    const announcement = screen.getByTestId('notification-announcement');
    expect(announcement).toHaveAttribute('aria-live', 'polite');
    expect(announcement).toHaveTextContent('New notification: A push the API has not listed yet');

    // The same push delivered twice counts once.
    act(() => {
      addLiveNotification({ id: 9002, type: 'task_approved', message: 'A push the API has not listed yet', created_by: 'someone', timestamp: new Date().toISOString() });
    });
    expect(badge()).toHaveTextContent('2');
  });

  it('opening it lists the unread items and marks nothing read; "Mark all as read" reads them all', async () => {
    clearLiveNotifications();
    renderScreen(<NotificationBell email={api.member.email} />);
    await waitFor(() => expect(badge()).toHaveTextContent('1'));

    await userEvent.click(screen.getByTestId('notification-bell'));
    const popover = await screen.findByRole('dialog', { name: 'Notifications' });
    await waitFor(() => expect(within(popover).getByRole('tab', { name: 'Unread (1)' })).toBeInTheDocument());
    expect(within(popover).getByText(api.assignedMessage)).toBeInTheDocument();
    // Opening shows; it reads nothing.
    expect(badge()).toHaveTextContent('1');
    expect((await memberRecords()).some((record) => !record.is_read)).toBe(true);

    await userEvent.click(within(popover).getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(within(popover).getByRole('tab', { name: 'Unread (0)' })).toBeInTheDocument());
    await waitFor(() => expect(badge()).toBeNull());
    expect((await memberRecords()).every((record) => record.is_read)).toBe(true);
  });

  it('"View All Notifications" opens the modal list, closed by Close, back on the bell', async () => {
    renderScreen(<NotificationBell email={api.member.email} />);
    await userEvent.click(screen.getByTestId('notification-bell'));
    await userEvent.click(await screen.findByRole('button', { name: 'View All Notifications' }));
    const modal = await screen.findByRole('dialog', { name: 'All Notifications' });
    expect(await within(modal).findByText(api.assignedMessage)).toBeInTheDocument();
    await userEvent.click(within(modal).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'All Notifications' })).toBeNull());
    // Where a keyboard left off: on the bell (the panel it was opened from has closed), not at the top of the page.
    expect(screen.getByTestId('notification-bell')).toHaveFocus();
  });
});

describe('a notification about a subtask', () => {
  it('opens the subtask a notification is about', async () => {
    clearLiveNotifications();
    const { router } = renderScreen(<NotificationBell email={api.member.email} />);
    await userEvent.click(await screen.findByTestId('notification-bell'));
    // Read already by "Mark all as read" above: it is on the Read tab.
    await userEvent.click(await screen.findByRole('tab', { name: /^Read/ }));
    await userEvent.click(await screen.findByRole('link', { name: api.assignedMessage }));
    expect(router.state.location.search).toMatch(/^\?subtask=\d+$/);
    expect(screen.queryByRole('link', { name: api.assignedMessage })).toBeNull();
  });
});

describe('marking notifications read one by one', () => {
  it('a push that arrives while the bell is open is marked read by its button, or by opening it, and only that one', async () => {
    clearLiveNotifications();
    const { router } = renderScreen(<NotificationBell email={api.member.email} />);
    // Everything was read by the tests above.
    await userEvent.click(await screen.findByTestId('notification-bell'));
    const popover = await screen.findByRole('dialog', { name: 'Notifications' });
    expect((await memberRecords()).every((record) => record.is_read)).toBe(true);

    // While it is open, two new assignments arrive, on the server and as pushes.
    const { access } = await loginAs(api.server.app, api.manager);
    const created = await injectAs(api.server.app, access, {
      method: 'POST',
      url: '/api/major-tasks/',
      payload: {
        project_id: api.projectId,
        name: 'Piers',
        subtasks: [
          { name: 'Cast pier 1', assigned_to_id: api.member.id, due_date: '2030-05-02', priority: 'low' },
          { name: 'Cast pier 2', assigned_to_id: api.member.id, due_date: '2030-05-03', priority: 'low' },
        ],
      },
    });
    expect(created.statusCode).toBe(201);
    const [first, second] = (await memberRecords()).filter((record) => !record.is_read);
    expect(second).toBeDefined();
    act(() => {
      for (const record of [first!, second!]) addLiveNotification({ id: record.id, ...record.notification, created_by: api.manager.email, timestamp: new Date().toISOString() });
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

  it('names a notification no person sent (a reminder) as the system, in the reader’s language', async () => {
    clearLiveNotifications();
    // A reader whose profile speaks French (signing in settles on the profile's language).
    const reader = await api.server.createUser(api.company, 'team_member', { managerId: api.manager.id, language: 'fr' });
    await api.server.signIn(reader);
    await setLanguage('fr', { remember: false });
    try {
      renderScreen(<NotificationBell email={reader.email} />);
      act(() => {
        addLiveNotification({ id: 9100, type: 'deadline_reminder', message: 'Rappel : Pour footing B est dû demain', created_by: SYSTEM_AUTHOR, timestamp: new Date().toISOString() });
      });
      await userEvent.click(await screen.findByRole('button', { name: /^Notifications/ }));
      const item = (await screen.findByText('Rappel : Pour footing B est dû demain')).closest('li')!;
      expect(item).toHaveTextContent(/Système · /);
      expect(item).not.toHaveTextContent('System ·');
    } finally {
      clearLiveNotifications();
      localStorage.removeItem(STORAGE_KEYS.notificationsLastOpenAt);
      await setLanguage('en', { remember: false });
      await api.server.signIn(api.member);
    }
  });
});
