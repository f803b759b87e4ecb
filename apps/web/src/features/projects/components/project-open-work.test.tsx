import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { insertMajorTask, insertProject, insertSubtask } from '../../../../../server/src/test/work-factories';
import { apiServerForFile } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { ProjectOpenWork } from './project-open-work';

const api = apiServerForFile(async (server) => {
  const { company, manager, member } = await server.createCrew({ memberEmail: 'ramp.crew@example.test' });
  const project = await insertProject(server.database.db, company.id, { managerId: manager.id });
  const majorTask = await insertMajorTask(server.database.db, company.id, project.id);
  const work = { companyId: company.id, majorTaskId: majorTask.id, assignedToId: member.id };
  await insertSubtask(server.database.db, { ...work, name: 'Pour the ramp', status: 'pending_approval', dueDate: '2030-01-10' });
  await insertSubtask(server.database.db, { ...work, name: 'Set the rails', status: 'ongoing', dueDate: '2030-02-10' });
  await insertSubtask(server.database.db, { ...work, name: 'Dig the footing', status: 'completed', dueDate: '2029-12-10' });
  return { manager, project };
});

describe('the completion dialog’s unfinished work', () => {
  it('lists each unfinished subtask with its status, who has it, and that it is closed unfinished, not approved', async () => {
    await api.server.signIn(api.manager);
    renderScreen(<ProjectOpenWork projectId={api.project.id} detail="2 subtasks are unfinished." />);
    expect(screen.getByText('2 subtasks are unfinished.')).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Closed unfinished, not approved' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Pour the ramp.*Pending Approval · .+ · Closed unfinished, not approved$/),
      expect.stringMatching(/^Set the rails.*Ongoing · .+ · Closed unfinished, not approved$/),
    ]);
    expect(screen.queryByText('Dig the footing')).not.toBeInTheDocument();
  });
});
