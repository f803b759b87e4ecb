import { onlineManager } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it } from 'vitest';
import { insertMajorTask, insertProject, insertSubtask } from '../../../server/src/test/work-factories';
import { CrewDailyLogPage } from '../features/daily-logs/components/daily-log-pages';
import { NotSavedHere } from '../features/offline/components/not-saved-here';
import { MyTaskLists } from '../features/tasks/components/my-task-lists';
import { TeamWorkload } from '../features/users/components/team-workload';
import { apiServerForFile } from '../test/api-server';
import { renderScreen } from '../test/render';
import { prefetchAreaData } from './area-data';
import { ManagerDrawingsPage } from './routes/manager/drawings';
import { ManagerProjectsPage } from './routes/manager/projects';
import { ManagerCreateTaskPage } from './routes/manager/create-task';
import { ManagerDailyLogPage } from './routes/manager/daily-log';

const shared = apiServerForFile(async (server) => {
  const crew = await server.createCrew();
  const project = await insertProject(server.database.db, crew.company.id, { managerId: crew.manager.id, name: 'Pier Deck' });
  const majorTaskId = (await insertMajorTask(server.database.db, crew.company.id, project.id, { name: 'Decking' })).id;
  await insertSubtask(server.database.db, { companyId: crew.company.id, majorTaskId, assignedToId: crew.member.id, assignedById: crew.manager.id, name: 'Fix deck boards', status: 'pending_approval', dueDate: '2030-06-01' });
  return crew;
});

afterEach(() => act(() => onlineManager.setOnline(true)));

it("after sign-in, a manager's screens never opened still open without a signal", async () => {
  await shared.server.signIn(shared.manager);
  const { router, queryClient } = renderScreen(<p>The dashboard</p>, {
    path: '/manager',
    route: '/manager',
    routes: [
      { path: '/manager/my-tasks', element: <><NotSavedHere /><MyTaskLists showApprovals /></> },
      { path: '/manager/team-assignments', element: <><NotSavedHere /><TeamWorkload /></> },
      { path: '/manager/drawings', element: <><NotSavedHere /><ManagerDrawingsPage /></> },
      { path: '/manager/projects', element: <><NotSavedHere /><ManagerProjectsPage /></> },
      { path: '/manager/daily-log', element: <><NotSavedHere /><ManagerDailyLogPage /></> },
      { path: '/manager/create-task', element: <><NotSavedHere /><ManagerCreateTaskPage /></> },
    ],
  });
  await prefetchAreaData(queryClient, 'manager');
  act(() => onlineManager.setOnline(false));

  await act(() => router.navigate('/manager/my-tasks'));
  expect((await screen.findAllByText('Fix deck boards')).length).toBeGreaterThan(0);
  await act(() => router.navigate('/manager/team-assignments'));
  // The team's answer (no team records yet), not "Loading...".
  expect(await screen.findByText('No team members yet.')).toBeInTheDocument();
  // The project browser's first page is the first part of the pickers' answer, asked for once.
  await act(() => router.navigate('/manager/projects'));
  expect(await screen.findByText('Pier Deck')).toBeInTheDocument();
  expect(screen.queryByRole('alert')).toBeNull();
  // The drawings' choice of projects is the daily log's list, asked for ahead under the one key both read
  // (its sheets are asked for once a project is chosen, with a signal).
  await act(() => router.navigate('/manager/drawings'));
  expect(await screen.findByRole('option', { name: 'Pier Deck' })).toBeInTheDocument();
  // The daily log opens on the first project's today, with its last two weeks, as with a signal.
  await act(() => router.navigate('/manager/daily-log'));
  expect(await screen.findByTestId('log-status')).toHaveTextContent('not signed yet');
  expect(screen.getByRole('navigation', { name: 'The last two weeks' }).querySelectorAll('li')).toHaveLength(14);
  expect(screen.queryByRole('alert')).toBeNull();
  // Create Task: a project chosen has its dates from the picker's list, without a call of its own.
  await act(() => router.navigate('/manager/create-task'));
  const project = await screen.findByRole('combobox', { name: 'Project' });
  await waitFor(() => expect(within(project).getByRole('option', { name: 'Pier Deck' })).toBeInTheDocument());
  await userEvent.selectOptions(project, 'Pier Deck');
  expect(screen.queryByRole('alert')).toBeNull();
});

it("after sign-in, the crew's daily log never opened still opens without a signal", async () => {
  await shared.server.signIn(shared.member);
  const { router, queryClient } = renderScreen(<p>The dashboard</p>, {
    path: '/team-member',
    route: '/team-member',
    routes: [{ path: '/team-member/daily-log', element: <><NotSavedHere /><CrewDailyLogPage /></> }],
  });
  await prefetchAreaData(queryClient, 'team_member');
  act(() => onlineManager.setOnline(false));

  await act(() => router.navigate('/team-member/daily-log'));
  expect(await screen.findByTestId('log-status')).toHaveTextContent('not signed yet');
  expect(screen.getByRole('button', { name: 'Add to the log' })).toBeInTheDocument();
  expect(screen.queryByRole('alert')).toBeNull();
});
