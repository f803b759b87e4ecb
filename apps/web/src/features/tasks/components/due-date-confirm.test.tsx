import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Project, User } from '@siteboard/shared';
import type { TestUser } from '../../../../../server/src/test/factories';
import { insertMajorTask, insertProject, insertSubtask } from '../../../../../server/src/test/work-factories';
import { apiPage } from '../../../lib/api-client';
import type { ListSearch } from '../../../lib/lists';
import { startApiServer, type ApiServer } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { CreateMajorTaskForm } from './create-major-task-form';
import { CreateSubtaskForm } from './create-subtask-form';
import { SubtaskDrawer } from './subtask-drawer';

let server: ApiServer;
let manager: TestUser;
let member: TestUser;
let projectId: number;
let majorTaskId: number;
let subtaskId: number;

const findPeople: ListSearch<User> = (search) => ({ queryKey: ['people', search], queryFn: () => apiPage<User>('/api/users/', { query: { search, limit: 20 } }) });
const findProjects: ListSearch<Pick<Project, 'id' | 'name'>> = (search) => ({ queryKey: ['projects', search], queryFn: () => apiPage<Project>('/api/projects/', { query: { search, limit: 20 } }) });

/** Far enough ahead that "in the past" is never the reason. */
const PROJECT = { startDate: '2031-03-01', endDate: '2031-06-30' };

beforeAll(async () => {
  server = await startApiServer();
  const company = await server.createCompany();
  manager = await server.createUser(company, 'manager');
  member = await server.createUser(company, 'team_member', { managerId: manager.id });
  projectId = (await insertProject(server.database.db, company.id, { managerId: manager.id, name: 'Quay Extension', ...PROJECT })).id;
  majorTaskId = (await insertMajorTask(server.database.db, company.id, projectId, { name: 'Piling' })).id;
  subtaskId = (await insertSubtask(server.database.db, { companyId: company.id, majorTaskId, assignedToId: member.id, assignedById: manager.id, name: 'Drive pile 7', dueDate: '2031-04-01' })).id;
  await server.signIn(manager);
});
afterAll(() => server.close());

const writes = (call: string) => server.requests.filter((request) => request === call).length;

async function chooseFrom(searchLabel: string, selectLabel: string, text: string, scope: HTMLElement = document.body) {
  await userEvent.type(within(scope).getByLabelText(searchLabel), text.slice(0, 6));
  const select = within(scope).getByLabelText(selectLabel);
  await waitFor(() => expect([...select.querySelectorAll('option')].some((option) => option.textContent?.startsWith(text))).toBe(true));
  await userEvent.selectOptions(select, [...select.querySelectorAll('option')].find((option) => option.textContent?.startsWith(text))!);
}

describe('a due date outside the plan asks first', () => {
  it('new subtask: a date after the project ends is saved only once confirmed', async () => {
    let created = 0;
    renderScreen(<CreateSubtaskForm id="new-subtask" majorTaskId={majorTaskId} projectId={projectId} projectManagerId={manager.id} findAssignees={findPeople} onCreated={() => created++} />);
    await userEvent.type(screen.getByLabelText('Title'), 'Drive pile 9');
    await chooseFrom('Search assignee', 'Assignee', member.email);
    await userEvent.type(screen.getByLabelText('Due Date'), '2031-08-15');
    await waitFor(() => expect(server.requests).toContain(`GET /api/projects/${projectId}/`));
    const before = writes('POST /api/subtasks/');

    await userEvent.click(screen.getByRole('button', { name: 'Submit Subtask' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Check the due date' });
    expect(dialog).toHaveTextContent(/Aug 15, 2031 is after the project ends \(Jun 30, 2031\)\./);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change the date' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(writes('POST /api/subtasks/')).toBe(before);
    expect(created).toBe(0);

    await userEvent.click(screen.getByRole('button', { name: 'Submit Subtask' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Save anyway' }));
    await waitFor(() => expect(created).toBe(1));
    expect(writes('POST /api/subtasks/')).toBe(before + 1);
  });

  it('new major task: a subtask due in the past is named by its number, and saved once confirmed', async () => {
    renderScreen(<CreateMajorTaskForm findProjects={findProjects} findAssignees={findPeople} />);
    await chooseFrom('Search by name', 'Project', 'Quay Extension');
    await userEvent.type(screen.getByLabelText('Major Task Name'), 'Decking');
    await userEvent.type(screen.getByLabelText('Title'), 'Lay deck planks');
    await chooseFrom('Search assignee', 'Assignee', member.email);
    await userEvent.type(screen.getByLabelText('Due Date'), '2020-01-10');
    await userEvent.click(screen.getByRole('button', { name: 'Add Subtask' }));
    const second = screen.getByRole('group', { name: 'Subtask 2' });
    await userEvent.type(within(second).getByLabelText('Title'), 'Seal deck');
    await chooseFrom('Search assignee', 'Assignee', member.email, second);
    await userEvent.type(within(second).getByLabelText('Due Date'), '2031-05-10');
    await waitFor(() => expect(server.requests).toContain(`GET /api/projects/${projectId}/`));

    await userEvent.click(screen.getByRole('button', { name: 'Create Major Task' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Check the due date' });
    expect(dialog).toHaveTextContent('Subtask 1: Jan 10, 2020 is in the past.');
    expect(dialog).toHaveTextContent('Subtask 1: Jan 10, 2020 is before the project starts (Mar 1, 2031).');
    expect(dialog).not.toHaveTextContent('Subtask 2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save anyway' }));
    expect(await screen.findByText('Major task and subtasks created successfully!')).toBeInTheDocument();
  });

  it('subtask edit: a new date before the project starts asks; other changes do not', async () => {
    renderScreen(<SubtaskDrawer findAssignees={findPeople} />, { path: `/manager?subtask=${subtaskId}`, route: '/manager' });
    const drawer = await screen.findByRole('dialog', { name: 'Drive pile 7' });
    await userEvent.click(await within(drawer).findByRole('button', { name: 'Edit' }));
    const dueDate = within(drawer).getByLabelText('Due date');
    await userEvent.clear(dueDate);
    await userEvent.type(dueDate, '2031-02-01');
    await waitFor(() => expect(server.requests).toContain(`GET /api/projects/${projectId}/`));
    const before = writes(`PATCH /api/subtasks/${subtaskId}/`);
    await userEvent.click(within(drawer).getByRole('button', { name: 'Save changes' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Check the due date' });
    expect(dialog).toHaveTextContent('Feb 1, 2031 is before the project starts (Mar 1, 2031).');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change the date' }));
    expect(writes(`PATCH /api/subtasks/${subtaskId}/`)).toBe(before);

    // Back to its old date and a new title: nothing to ask.
    await userEvent.clear(dueDate);
    await userEvent.type(dueDate, '2031-04-01');
    await userEvent.clear(within(drawer).getByLabelText('Title'));
    await userEvent.type(within(drawer).getByLabelText('Title'), 'Drive pile 7A');
    await userEvent.click(within(drawer).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Changes saved.')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(writes(`PATCH /api/subtasks/${subtaskId}/`)).toBe(before + 1);
  });
});
