import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Priority } from '@siteboard/shared';
import { insertMajorTask, insertProject, insertSubtask } from '../../../server/src/test/work-factories';
import { apiServerForFile } from '../test/api-server';
import { renderScreen } from '../test/render';
import { CompanyProjects } from './company-projects';
import { AdminDashboardPage } from './routes/admin/dashboard';
import { TeamMemberCreateTaskPage } from './routes/team-member/pages';

/**
 * A project of more major tasks and subtasks than a page: the pickers and the opened project must
 * find each one without loading the project's whole tree (`?expand=major_tasks`).
 */
const shared = apiServerForFile(async (server) => {
  const crew = await server.createCrew();
  const db = server.database.db;
  const name = `Harbour Tower ${Date.now().toString(36)}`;
  const project = await insertProject(db, crew.company.id, { managerId: crew.manager.id, name, startDate: '2025-01-01', endDate: '2099-12-31' });
  const priorities: Priority[] = ['high', 'medium', 'low'];
  for (let level = 1; level <= 25; level++) {
    const majorTask = await insertMajorTask(db, crew.company.id, project.id, { name: `Level ${level} fit-out`, createdById: crew.manager.id });
    const units = level === 25 ? 25 : 1;
    for (let unit = 1; unit <= units; unit++) {
      await insertSubtask(db, { companyId: crew.company.id, majorTaskId: majorTask.id, assignedToId: crew.member.id, assignedById: crew.manager.id, name: `Level ${level} unit ${unit}`, priority: priorities[unit % 3], status: unit <= 2 ? 'completed' : 'ongoing' });
    }
  }
  const emptyName = `Empty yard ${Date.now().toString(36)}`;
  await insertProject(db, crew.company.id, { managerId: crew.manager.id, name: emptyName, startDate: '2025-01-01', endDate: '2099-12-31' });
  return { ...crew, name, projectId: project.id, emptyName };
});

/** The project's whole tree (`?expand=major_tasks`) fails to load: a screen that asks for it shows no major task. */
const refuseWholeTree = () => shared.server.answer('GET', /[?&]expand=major_tasks/, { status: 500, json: { detail: 'Too large for a phone' } });

describe('pickers and an opened project of many major tasks', () => {
  it("the team member's Create Task finds a major task past the first page by typing, and creates a subtask under it", async () => {
    await shared.server.signIn(shared.member);
    refuseWholeTree();
    renderScreen(<TeamMemberCreateTaskPage />);
    await userEvent.type(screen.getByLabelText('Search by name'), shared.name);
    await userEvent.selectOptions(screen.getByLabelText('Project'), await screen.findByRole('option', { name: shared.name }));

    const picker = await screen.findByLabelText('Major Task');
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(21));
    expect(screen.getByText('Showing 20 of 25: type to narrow the list.')).toBeInTheDocument();
    expect(within(picker).queryByRole('option', { name: 'Level 24 fit-out' })).toBeNull();

    await userEvent.type(screen.getByLabelText('Search tasks by name'), 'level 24');
    await userEvent.selectOptions(picker, await within(picker).findByRole('option', { name: 'Level 24 fit-out' }));
    expect(within(picker).getAllByRole('option')).toHaveLength(2);
    await userEvent.type(await screen.findByLabelText('Title'), 'Level 24 unit 2');
    await userEvent.selectOptions(screen.getByLabelText('Assignee'), await screen.findByRole('option', { name: new RegExp(shared.member.email) }));
    await userEvent.type(screen.getByLabelText('Due Date'), '2031-05-10');
    await userEvent.click(screen.getByRole('button', { name: 'Submit Subtask' }));
    expect(await screen.findByText('Subtask created successfully!')).toBeInTheDocument();
    expect(shared.server.answered).toEqual([]);
  }, 30_000);

  it("the team member's Create Task says when only the search matched no major task, and when the project has none", async () => {
    await shared.server.signIn(shared.member);
    renderScreen(<TeamMemberCreateTaskPage />);
    const chooseProject = async (name: string) => {
      await userEvent.clear(screen.getByLabelText('Search by name'));
      await userEvent.type(screen.getByLabelText('Search by name'), name);
      await userEvent.selectOptions(screen.getByLabelText('Project'), await screen.findByRole('option', { name }));
    };
    await chooseProject(shared.name);
    await userEvent.type(await screen.findByLabelText('Search tasks by name'), 'Level 99');
    expect(await screen.findByText('No major task matches your search.')).toBeInTheDocument();
    expect(screen.queryByText('No major tasks for this project.')).toBeNull();

    await chooseProject(shared.emptyName);
    expect(await screen.findByText('No major tasks for this project.')).toBeInTheDocument();
    expect(screen.queryByText('No major task matches your search.')).toBeNull();
  }, 30_000);

  it('an opened project lists a page of its major tasks with their counts, searches them, and an opened task pages its subtasks', async () => {
    await shared.server.signIn(shared.manager);
    refuseWholeTree();
    renderScreen(<CompanyProjects />);
    await userEvent.type(screen.getByPlaceholderText('Search projects...'), shared.name);
    await userEvent.click(await screen.findByRole('button', { name: new RegExp(shared.name) }));

    expect(await screen.findByRole('button', { name: /^Level 1 fit-out/ })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^Level \d+ fit-out/ })).toHaveLength(20);
    await userEvent.click(screen.getAllByRole('button', { name: 'Show More' })[0]!);
    expect(await screen.findByRole('button', { name: /^Level 25 fit-out/ })).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Search major tasks'), 'Level 25');
    await waitFor(() => expect(screen.getAllByRole('button', { name: /^Level \d+ fit-out/ })).toHaveLength(1));
    const task = screen.getByRole('button', { name: /^Level 25 fit-out/ });
    // Counted by the server: 25 subtasks, two completed, by priority.
    expect(task).toHaveTextContent('Progress: 2/25');
    expect(task).toHaveTextContent('8 High');
    expect(task).toHaveTextContent('9 Medium');
    expect(task).toHaveTextContent('8 Low');

    await userEvent.click(task);
    const table = await screen.findByRole('table', { name: 'Subtasks' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(21));
    await userEvent.click(screen.getByRole('button', { name: 'Show More' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(26));
    expect(shared.server.answered).toEqual([]);
  }, 30_000);

  it("the admin's opened project asks for a page of major tasks' subtasks in one request, and each major task shows more on its own", async () => {
    await shared.server.signIn(shared.company.admin);
    refuseWholeTree();
    shared.server.requestUrls.length = 0;
    const subtaskCalls = () => shared.server.requestUrls.filter((request) => /\/api\/projects\/\d+\/subtask(s|-pages)\//.test(request));
    renderScreen(<AdminDashboardPage />, { path: '/admin' });
    const ongoing = await screen.findByRole('table', { name: 'Ongoing Projects' });
    await userEvent.click(await within(ongoing).findByRole('button', { name: shared.name }));

    const majorTasks = await screen.findByRole('list', { name: `Major tasks of ${shared.name}` });
    for (const level of [1, 20]) expect(await within(majorTasks).findByText(`Level ${level} unit 1`)).toBeInTheDocument();
    expect(subtaskCalls()).toEqual([expect.stringMatching(/\/subtask-pages\/\?major_task_ids=(\d+(%2C|,)){19}\d+&/)]);

    // The next page of major tasks: one more request for all of their subtasks.
    await userEvent.click(screen.getByRole('button', { name: 'Show More' }));
    expect(await within(majorTasks).findByText('Level 25 unit 20')).toBeInTheDocument();
    expect(within(majorTasks).queryByText('Level 25 unit 21')).toBeNull();
    expect(subtaskCalls()).toHaveLength(2);

    // A major task of more subtasks than a page goes on through its own list.
    await userEvent.click(screen.getByRole('button', { name: 'Show More' }));
    expect(await within(majorTasks).findByText('Level 25 unit 25')).toBeInTheDocument();
    expect(subtaskCalls()).toHaveLength(3);
    expect(subtaskCalls()[2]).toMatch(/\/subtasks\/\?major_task_id=\d+&limit=20&offset=20$/);
    expect(shared.server.answered).toEqual([]);
  }, 30_000);

  it("the admin's opened project still shows its major tasks' subtasks when the shared request is refused (one of them deleted meanwhile)", async () => {
    await shared.server.signIn(shared.company.admin);
    refuseWholeTree();
    shared.server.answer('GET', /\/subtask-pages\//, { status: 404, json: { detail: 'Major task not found.' } });
    renderScreen(<AdminDashboardPage />, { path: '/admin' });
    const ongoing = await screen.findByRole('table', { name: 'Ongoing Projects' });
    await userEvent.click(await within(ongoing).findByRole('button', { name: shared.name }));
    const majorTasks = await screen.findByRole('list', { name: `Major tasks of ${shared.name}` });
    // Each major task asks for its own page instead: none says it failed for another's sake.
    for (const level of [1, 20]) expect(await within(majorTasks).findByText(`Level ${level} unit 1`)).toBeInTheDocument();
    expect(within(majorTasks).queryByRole('alert')).toBeNull();
    shared.server.clearAnswers();
  }, 30_000);

  it("an opened major task whose subtasks cannot be read says so and tries again, rather than showing none", async () => {
    await shared.server.signIn(shared.manager);
    shared.server.answer('GET', /\/api\/projects\/\d+\/subtasks\/\?.*major_task_id=/, { status: 503, json: { detail: 'Try again' } }, { times: 1 });
    renderScreen(<CompanyProjects />);
    await userEvent.type(screen.getByPlaceholderText('Search projects...'), shared.name);
    await userEvent.click(await screen.findByRole('button', { name: new RegExp(shared.name) }));
    await userEvent.click(await screen.findByRole('button', { name: /^Level 3 fit-out/ }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load data. Please try again.');
    expect(screen.queryByText('No subtasks available.')).toBeNull();
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    const table = await screen.findByRole('table', { name: 'Subtasks' });
    expect(within(table).getByText('Level 3 unit 1')).toBeInTheDocument();
    expect(shared.server.answered).toEqual([expect.stringMatching(/^GET \/api\/projects\/\d+\/subtasks\/ 503$/)]);
    shared.server.clearAnswers();
  }, 30_000);
});
