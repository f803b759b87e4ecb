import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { insertMajorTask, insertProject } from '../../../server/src/test/work-factories';
import { apiServerForFile } from '../test/api-server';
import { renderScreen } from '../test/render';
import { ManagerCreateTaskPage } from './routes/manager/create-task';
import { TeamMemberCreateTaskPage } from './routes/team-member/pages';
import { CompanyProjects } from './company-projects';

/**
 * A create screen that stays for the next one (emptied, or keeping what is shared) says it worked
 * where the person is: focus moves to the confirmation, so a phone scrolled to the form's bottom,
 * a screen reader and a keyboard all get it, rather than an emptied form that looks like lost input.
 */
const shared = apiServerForFile(async (server) => {
  const crew = await server.createCrew();
  const db = server.database.db;
  const name = `Quay Wall ${Date.now().toString(36)}`;
  const project = await insertProject(db, crew.company.id, { managerId: crew.manager.id, name, startDate: '2025-01-01', endDate: '2099-12-31' });
  const majorTask = await insertMajorTask(db, crew.company.id, project.id, { name: 'Pile caps', createdById: crew.manager.id });
  return { ...crew, name, projectId: project.id, majorTaskId: majorTask.id };
});

/** Fills a subtask's title, assignee (the crew's member) and due date in `scope`. */
async function fillSubtask(scope: HTMLElement, title: string) {
  await userEvent.type(await within(scope).findByLabelText('Title'), title);
  await userEvent.type(within(scope).getByLabelText('Search assignee'), shared.member.email.slice(0, 8));
  const assignee = within(scope).getByLabelText('Assignee');
  await userEvent.selectOptions(assignee, await within(assignee).findByRole('option', { name: new RegExp(shared.member.email) }));
  await userEvent.type(within(scope).getByLabelText('Due Date'), '2031-05-10');
}

/** The confirmation has the focus and says `text`. */
async function expectFocusedConfirmation(text: string) {
  await waitFor(() => expect(screen.getByRole('status')).toHaveFocus());
  expect(screen.getByRole('status')).toHaveTextContent(text);
}

describe('a create screen that stays after a success', () => {
  it("the manager's Create Task moves focus to \"created\" once the form is emptied", async () => {
    await shared.server.signIn(shared.manager);
    renderScreen(<ManagerCreateTaskPage />);
    await userEvent.type(screen.getByLabelText('Search by name'), shared.name);
    await userEvent.selectOptions(screen.getByLabelText('Project'), await screen.findByRole('option', { name: shared.name }));
    await userEvent.type(screen.getByLabelText('Major Task Name'), 'Fenders');
    await fillSubtask(screen.getByRole('group', { name: 'Subtask 1' }), 'Bolt fenders');
    await userEvent.click(screen.getByRole('button', { name: 'Create Major Task' }));

    await expectFocusedConfirmation('Major task and subtasks created successfully!');
    expect(screen.getByLabelText('Major Task Name')).toHaveValue('');
  }, 30_000);

  it('a subtask added under an opened major task focuses "created" where its form closed', async () => {
    await shared.server.signIn(shared.manager);
    renderScreen(<CompanyProjects />);
    await userEvent.type(screen.getByPlaceholderText('Search projects...'), shared.name);
    await userEvent.click(await screen.findByRole('button', { name: new RegExp(shared.name) }));
    await userEvent.click(await screen.findByRole('button', { name: /^Pile caps/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Create Subtask' }));
    const form = await screen.findByRole('form', { name: 'Add New Subtask' });
    await fillSubtask(form, 'Cap 3 rebar');
    await userEvent.click(within(form).getByRole('button', { name: 'Submit Subtask' }));
    await expectFocusedConfirmation('Subtask created successfully!');
  }, 30_000);

  it("the team member's Create Task keeps the project and major task for the next subtask, and focuses \"created\" each time", async () => {
    await shared.server.signIn(shared.member);
    renderScreen(<TeamMemberCreateTaskPage />);
    await userEvent.type(screen.getByLabelText('Search by name'), shared.name);
    await userEvent.selectOptions(screen.getByLabelText('Project'), await screen.findByRole('option', { name: shared.name }));
    const picker = await screen.findByLabelText('Major Task');
    await userEvent.selectOptions(picker, await within(picker).findByRole('option', { name: 'Pile caps' }));

    for (const title of ['Cap 1 rebar', 'Cap 2 rebar']) {
      await fillSubtask(document.body, title);
      await userEvent.click(screen.getByRole('button', { name: 'Submit Subtask' }));
      await expectFocusedConfirmation('Subtask created successfully!');
      // Only the subtask's own fields are emptied.
      await waitFor(() => expect(screen.getByLabelText('Title')).toHaveValue(''));
      expect(screen.getByLabelText('Project')).toHaveValue(String(shared.projectId));
      expect(screen.getByLabelText('Major Task')).toHaveValue(String(shared.majorTaskId));
    }
    expect(shared.server.answered).toEqual([]);
  }, 30_000);
});
