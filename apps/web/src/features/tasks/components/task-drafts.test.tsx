import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Project, User } from '@siteboard/shared';
import type { TestUser } from '../../../../../server/src/test/factories';
import { insertMajorTask, insertProject } from '../../../../../server/src/test/work-factories';
import { apiPage } from '../../../lib/api-client';
import type { ListSearch } from '../../../lib/lists';
import { storage } from '../../../lib/storage';
import { startApiServer, type ApiServer } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { CreateMajorTaskForm } from './create-major-task-form';
import { CreateSubtaskForm } from './create-subtask-form';

let server: ApiServer;
let manager: TestUser;
let member: TestUser;
let projectId: number;

const findPeople: ListSearch<User> = (search) => ({ queryKey: ['people', search], queryFn: () => apiPage<User>('/api/users/', { query: { search, limit: 20 } }) });
const findProjects: ListSearch<Pick<Project, 'id' | 'name'>> = (search) => ({ queryKey: ['projects', search], queryFn: () => apiPage<Project>('/api/projects/', { query: { search, limit: 20 } }) });

beforeAll(async () => {
  server = await startApiServer();
  const company = await server.createCompany();
  manager = await server.createUser(company, 'manager');
  member = await server.createUser(company, 'team_member', { managerId: manager.id });
  projectId = (await insertProject(server.database.db, company.id, { managerId: manager.id, name: 'Harbour Wall', startDate: '2031-03-01', endDate: '2031-06-30' })).id;
  await server.signIn(manager);
  const profile = await fetch('/api/profile/', { headers: { Authorization: `Bearer ${storage.token}` } });
  storage.writeUser((await profile.json()) as User);
});
afterAll(() => server.close());
const drafts = () => Object.keys(localStorage).filter((key) => key.startsWith('draft:'));
afterEach(() => drafts().forEach((key) => localStorage.removeItem(key)));

/** The create screen with the sidebar's way out beside it. */
const createScreen = () => (
  <>
    <Link to="/manager/projects">Projects</Link>
    <CreateMajorTaskForm findProjects={findProjects} findAssignees={findPeople} />
  </>
);
const open = () => renderScreen(createScreen(), { path: '/manager/create-task', route: '/manager/create-task' });
const titles = () => screen.getAllByLabelText('Title').map((field) => (field as HTMLInputElement).value);
const SUBTASKS = ['Set out wall', 'Dig footing', 'Pour footing', 'Lay blocks', 'Cap wall'];

describe('a half-filled Create Task form', () => {
  it('survives a reload and a walk through the sidebar, asks before leaving, and is gone once sent', async () => {
    const first = open();
    await userEvent.type(screen.getByLabelText('Search by name'), 'Harbour');
    const project = screen.getByLabelText('Project');
    await waitFor(() => expect(within(project).getAllByRole('option')).toHaveLength(2));
    await userEvent.selectOptions(project, String(projectId));
    await userEvent.type(screen.getByLabelText('Major Task Name'), 'Harbour wall');
    for (const [index, name] of SUBTASKS.entries()) {
      if (index > 0) await userEvent.click(screen.getByRole('button', { name: 'Add Subtask' }));
      await userEvent.type(screen.getAllByLabelText('Title')[index]!, name);
    }
    expect(screen.getByRole('status')).toHaveTextContent('Kept on this device as a draft until you send or discard it.');

    // Leaving through the sidebar asks; staying keeps the form as it is.
    await userEvent.click(screen.getByRole('link', { name: 'Projects' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Leave this form?' });
    await userEvent.click(within(ask).getByRole('button', { name: 'Stay' }));
    expect(titles()).toEqual(SUBTASKS);
    await userEvent.click(screen.getByRole('link', { name: 'Projects' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Leave' }));
    expect(await screen.findByTestId('navigated-to')).toHaveTextContent('/manager/projects');
    first.unmount();

    // A reload (a new page on this device): all of it is back.
    open();
    expect(screen.getByRole('status')).toHaveTextContent('Your unsent input from this device is back.');
    expect(screen.getByLabelText('Major Task Name')).toHaveValue('Harbour wall');
    expect(titles()).toEqual(SUBTASKS);
    await waitFor(() => expect(screen.getByLabelText('Project')).toHaveValue(String(projectId)));

    // Sent: the draft is gone, and leaving no longer asks.
    for (const group of screen.getAllByRole('group', { name: /^Subtask \d+$/ })) {
      await userEvent.type(within(group).getByLabelText('Search assignee'), member.email.slice(0, 8));
      const assignee = within(group).getByLabelText('Assignee');
      await waitFor(() => expect(within(assignee).getAllByRole('option').length).toBeGreaterThan(1));
      await userEvent.selectOptions(assignee, String(member.id));
      await userEvent.type(within(group).getByLabelText('Due Date'), '2031-04-01');
    }
    await userEvent.click(screen.getByRole('button', { name: 'Create Major Task' }));
    expect(await screen.findByText('Major task and subtasks created successfully!')).toBeInTheDocument();
    expect(titles()).toEqual(['']);
    expect(drafts()).toEqual([]);
    await userEvent.click(screen.getByRole('link', { name: 'Projects' }));
    expect(await screen.findByTestId('navigated-to')).toHaveTextContent('/manager/projects');
  });

  it('is thrown away with Discard draft', async () => {
    const first = open();
    await userEvent.type(screen.getByLabelText('Major Task Name'), 'Slipway');
    first.unmount();
    open();
    expect(screen.getByLabelText('Major Task Name')).toHaveValue('Slipway');
    await userEvent.click(screen.getByRole('button', { name: 'Discard draft' }));
    expect(screen.getByLabelText('Major Task Name')).toHaveValue('');
    expect(screen.queryByRole('status')).toBeNull();
    expect(drafts()).toEqual([]);
  });
});

describe('a half-filled new subtask', () => {
  it('comes back after a reload, under the same major task only', async () => {
    const majorTaskId = (await insertMajorTask(server.database.db, manager.companyId, projectId, { name: 'Footings' })).id;
    const form = (id: number) => (
      <CreateSubtaskForm id="new-subtask" majorTaskId={id} projectId={projectId} projectManagerId={manager.id} findAssignees={findPeople} onCreated={() => {}} />
    );
    const first = renderScreen(form(majorTaskId));
    await userEvent.type(screen.getByLabelText('Title'), 'Check rebar');
    first.unmount();

    const again = renderScreen(form(majorTaskId));
    expect(screen.getByLabelText('Title')).toHaveValue('Check rebar');
    again.unmount();
    renderScreen(form(majorTaskId + 1));
    expect(screen.getByLabelText('Title')).toHaveValue('');
  });
});
