import type { Subtask } from '@siteboard/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { injectAs, loginAs } from '../../../../../server/src/test/factories';
import { apiServerForFile } from '../../../test/api-server';
import { createCrewWithWork } from '../../../test/crew-work';
import { fakeMatchMedia, restoreMatchMedia } from '../../../test/media';
import { renderScreen } from '../../../test/render';
import { MyTaskLists } from './my-task-lists';
import { SubtaskTable } from './subtask-table';
import { TaskDashboard } from './task-dashboard';

const shared = apiServerForFile((server) =>
  createCrewWithWork(server, [
    { name: 'Pour footing A', status: 'pending_approval' },
    { name: 'Pour footing B', status: 'pending_approval' },
    { name: 'Strip the formwork', status: 'ongoing' },
  ]),
);

describe("the team member's dashboard", () => {
  it('the "Send for Approval" card counts what awaits approval and opens that list', async () => {
    await shared.server.signIn(shared.member);
    renderScreen(<TaskDashboard board="team_member" leadingCard={() => null} />);

    const card = await screen.findByRole('button', { name: /^Send for Approval 2 awaiting approval$/ });
    expect(card).toHaveAttribute('aria-expanded', 'false');
    // The other cards are lists of work, with no caption.
    expect(screen.getByRole('button', { name: /^My Tasks/ })).toHaveAccessibleName('My Tasks 3');

    await userEvent.click(card);
    const panel = screen.getByRole('region', { name: 'Send for Approval' });
    // (A table on wide screens, cards on phones: each row is drawn in both.)
    expect(await within(panel).findAllByText('Pour footing A')).not.toHaveLength(0);
    expect(within(panel).getAllByText('Pour footing B')).not.toHaveLength(0);
    expect(within(panel).queryAllByText('Strip the formwork')).toHaveLength(0);
  });

  it('on the cards of all their tasks, only a task that can still be sent has an Action line', async () => {
    await shared.server.signIn(shared.member);
    renderScreen(<TaskDashboard board="team_member" leadingCard={() => null} />);
    await userEvent.click(await screen.findByRole('button', { name: 'My Tasks 3' }));
    const cards = await within(screen.getByRole('region', { name: 'My Tasks' })).findByRole('list', { name: 'My Tasks' });
    const card = async (name: string) => (await within(cards).findByText(name)).closest('li')!;

    expect(within(await card('Strip the formwork')).getByText('Action')).toBeInTheDocument();
    expect(within(await card('Strip the formwork')).getByRole('button', { name: 'Send for Approval' })).toBeInTheDocument();
    // Sent already: no "Action" label with nothing after it.
    expect(within(await card('Pour footing A')).queryByText('Action')).toBeNull();
  });

  it('on a phone the list under the cards is named for what is left to do, not as the card that counts every task', async () => {
    fakeMatchMedia((query) => query === '(max-width: 639px)');
    try {
      await shared.server.signIn(shared.member);
      renderScreen(<TaskDashboard board="team_member" leadingCard={() => null} />);
      expect(await screen.findByRole('button', { name: 'My Tasks 3' })).toBeInTheDocument();
      const toDo = await screen.findByRole('region', { name: 'To Do' });
      // Only the ongoing task: the two sent for approval are not left to do.
      expect(await within(toDo).findAllByText('Strip the formwork')).not.toHaveLength(0);
      expect(within(toDo).queryAllByText('Pour footing A')).toHaveLength(0);
      expect(screen.queryByRole('region', { name: 'My Tasks' })).toBeNull();
    } finally {
      restoreMatchMedia();
    }
  });
});

describe("the manager's dashboard", () => {
  it('says when the counts or a list fail to load, with Retry, and says each empty list in the spec words', async () => {
    const idle = await shared.server.createUser(shared.company, 'manager');
    await shared.server.signIn(idle);
    const failedSummary = { status: 500, json: { detail: 'Internal server error.' } };
    const refusedDueToday = { status: 403, json: { detail: 'No.' } };
    shared.server.answer('GET', /^\/api\/dashboard-summary\//, failedSummary);
    shared.server.answer('GET', /^\/api\/tasks-due-today\//, refusedDueToday);
    const first = renderScreen(<TaskDashboard board="manager" leadingCard={() => null} />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load data. Please try again.');
    shared.server.clearAnswers();
    shared.server.answer('GET', /^\/api\/tasks-due-today\//, refusedDueToday);
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());

    // Today's major tasks failed too; the other lists are empty for someone with no work.
    await userEvent.click(screen.getByRole('button', { name: /^Major Tasks Today/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load data. Please try again.');
    await userEvent.click(screen.getByRole('button', { name: /^My Tasks/ }));
    expect(await within(screen.getByRole('region', { name: 'My Tasks' })).findAllByText('No tasks assigned to you.')).not.toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: /^Pending Approvals/ }));
    expect(await within(screen.getByRole('region', { name: 'Pending Approvals' })).findAllByText('No pending approvals.')).not.toHaveLength(0);
    first.unmount();

    shared.server.clearAnswers();
    renderScreen(<TaskDashboard board="manager" leadingCard={() => null} />);
    await userEvent.click(await screen.findByRole('button', { name: /^Major Tasks Today/ }));
    expect(await within(screen.getByRole('region', { name: 'Major Tasks Today' })).findAllByText('No major tasks due today.')).not.toHaveLength(0);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('My Tasks names an empty list, and says when the approvals fail to load, with Retry', async () => {
    const idle = await shared.server.createUser(shared.company, 'manager');
    await shared.server.signIn(idle);
    shared.server.answer('GET', /^\/api\/pending-approvals\//, { status: 500, json: { detail: 'Internal server error.' } });
    renderScreen(<MyTaskLists showApprovals />);
    expect(await within(await screen.findByRole('table', { name: 'Assigned Tasks' })).findByText('No tasks assigned.')).toBeInTheDocument();
    const failed = await screen.findByRole('alert');
    expect(failed).toHaveTextContent('Failed to load tasks. Please try again.');
    shared.server.clearAnswers();
    await userEvent.click(within(failed).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('keeps a keyboard user in the list as approvals take rows away: the next row, then the list heading', async () => {
    const crew = await createCrewWithWork(shared.server, [
      { name: 'Set the anchor bolts', status: 'pending_approval' },
      { name: 'Grout the base plates', status: 'pending_approval' },
    ]);
    await shared.server.signIn(crew.manager);
    renderScreen(<MyTaskLists showApprovals />);
    const table = await screen.findByRole('table', { name: 'Pending Approvals' });
    const row = async (name: string) => (await within(table).findByText(name)).closest('tr')!;

    // Every row's buttons have the spec's names; each says which task it is for in its description.
    for (const name of ['Set the anchor bolts', 'Grout the base plates']) {
      expect(within(await row(name)).getByRole('button', { name: 'Approve Task' })).toHaveAccessibleDescription(name);
      expect(within(await row(name)).getByRole('button', { name: 'Decline Task' })).toHaveAccessibleDescription(name);
    }
    within(await row('Set the anchor bolts')).getByRole('button', { name: 'Approve Task' }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(within(table).queryByText('Set the anchor bolts')).toBeNull());
    // Not thrown to the top of the page: on the row that took its place, at its first control.
    expect(within(await row('Grout the base plates')).getByRole('link', { name: 'Open Grout the base plates' })).toHaveFocus();

    within(await row('Grout the base plates')).getByRole('button', { name: 'Approve Task' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(await within(table).findByText('No pending approvals.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Pending Approvals' })).toHaveFocus();
  });

  it('keeps a keyboard user on the row they sent for approval once the dialog closes and the button is gone', async () => {
    const crew = await createCrewWithWork(shared.server, [
      { name: 'Strip the east formwork', status: 'ongoing' },
      { name: 'Strip the west formwork', status: 'ongoing' },
    ]);
    await shared.server.signIn(crew.member);
    renderScreen(<MyTaskLists showApprovals={false} />);
    const table = await screen.findByRole('table', { name: 'Assigned Tasks' });
    const row = async (name: string) => (await within(table).findByText(name)).closest('tr')!;

    // The button comes once the signed-in person is known (the app has them before this screen).
    (await within(await row('Strip the east formwork')).findByRole('button', { name: 'Send for Approval' })).focus();
    await userEvent.keyboard('{Enter}');
    const send = await screen.findByRole('dialog', { name: 'Send for approval' });
    await userEvent.click(within(send).getByRole('button', { name: 'Send for Approval' }));
    await waitFor(() => expect(within(table).getAllByText('Pending Approval')).toHaveLength(1));
    // The row stays (now "Pending Approval", no button): focus is on it, at its first control, not at the page's top.
    const sent = await row('Strip the east formwork');
    await waitFor(() => expect(within(sent).getByRole('link', { name: 'Open Strip the east formwork' })).toHaveFocus());
  });
});

describe('the status dropdown of a subtask', () => {
  it('saves a choice made with the mouse at once, and one a keyboard user steps to only when they save it', async () => {
    const crew = await createCrewWithWork(shared.server, [
      { name: 'Brace the east wall', status: 'ongoing' },
      { name: 'Brace the west wall', status: 'ongoing' },
    ]);
    const { access } = await loginAs(shared.server.app, crew.manager);
    const all = async () => (await injectAs(shared.server.app, access, { method: 'GET', url: '/api/subtasks/' })).json() as Subtask[];
    const stored = async (name = 'Brace the east wall') => (await all()).find((subtask) => subtask.name === name)!;
    await shared.server.signIn(crew.manager);
    renderScreen(<SubtaskTable subtasks={await all()} canChange={() => true} />);
    const table = screen.getByRole('table', { name: 'Subtasks' });
    const select = within(table).getByRole('combobox', { name: 'Status of Brace the east wall' });

    // What a browser does for ArrowDown on a closed dropdown: the value steps on and a change fires, at every step.
    const arrowDown = (to: string) => {
      fireEvent.keyDown(select, { key: 'ArrowDown' });
      fireEvent.change(select, { target: { value: to } });
      fireEvent.keyUp(select, { key: 'ArrowDown' });
    };
    select.focus();
    arrowDown('pending_approval');
    arrowDown('completed');
    expect(select).toHaveValue('completed');
    expect(within(table).getByRole('button', { name: 'Save status' })).toHaveAccessibleDescription('Brace the east wall');
    // Escape takes the steps back; nothing was saved on the way.
    fireEvent.keyDown(select, { key: 'Escape' });
    expect(select).toHaveValue('ongoing');
    expect(within(table).queryByRole('button', { name: 'Save status' })).toBeNull();

    arrowDown('pending_approval');
    await userEvent.click(within(table).getByRole('button', { name: 'Save status' }));
    expect(await screen.findByText('Task status updated successfully!')).toBeInTheDocument();
    expect((await stored()).status).toBe('pending_approval');
    await waitFor(() => expect(select).toHaveFocus());

    // The mouse: a choice from the open list is deliberate, and saves at once.
    await userEvent.selectOptions(within(table).getByRole('combobox', { name: 'Status of Brace the west wall' }), 'completed');
    await waitFor(async () => expect((await stored('Brace the west wall')).status).toBe('completed'));
  });
});
