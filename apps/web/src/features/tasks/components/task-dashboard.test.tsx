import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { insertMajorTask, insertProject, insertSubtask } from '../../../../../server/src/test/work-factories';
import { apiServerForFile } from '../../../test/api-server';
import { fakeMatchMedia, restoreMatchMedia } from '../../../test/media';
import { renderScreen } from '../../../test/render';
import { TaskDashboard } from './task-dashboard';

const shared = apiServerForFile(async (server) => {
  const crew = await server.createCrew();
  const { db } = server.database;
  const project = await insertProject(db, crew.company.id, { managerId: crew.manager.id, name: 'Harbour Wall' });
  const majorTask = await insertMajorTask(db, crew.company.id, project.id, { name: 'Footings' });
  const work = { companyId: crew.company.id, majorTaskId: majorTask.id, assignedToId: crew.member.id, assignedById: crew.manager.id };
  await insertSubtask(db, { ...work, name: 'Pour footing A', status: 'pending_approval' });
  await insertSubtask(db, { ...work, name: 'Pour footing B', status: 'pending_approval' });
  await insertSubtask(db, { ...work, name: 'Strip the formwork', status: 'ongoing' });
  return crew;
});

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
