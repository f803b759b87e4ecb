import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { upsertTeamMember } from '../../../../../server/src/features/users/team.queries';
import { insertMajorTask, insertProject, insertSubtask } from '../../../../../server/src/test/work-factories';
import { apiServerForFile } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { TeamWorkload } from './team-workload';

const shared = apiServerForFile(async (server) => {
  const company = await server.createCompany();
  const manager = await server.createUser(company, 'manager');
  const named = await server.createUser(company, 'team_member', { managerId: manager.id, email: 'ana@example.test', fullName: 'Ana Ortiz' });
  const unnamed = await server.createUser(company, 'team_member', { managerId: manager.id, email: 'bo@example.test' });
  // The team is the manager's team records (as POST /api/team-members/ makes them).
  for (const member of [named, unnamed]) await upsertTeamMember(server.database.db, { companyId: company.id, userId: member.id, managerId: manager.id });
  const project = await insertProject(server.database.db, company.id, { managerId: manager.id });
  const majorTask = await insertMajorTask(server.database.db, company.id, project.id);
  await insertSubtask(server.database.db, { companyId: company.id, majorTaskId: majorTask.id, assignedToId: named.id, name: 'Set the anchor bolts' });
  return { manager, named, unnamed };
});

describe("the manager's team workload", () => {
  it('names each person, with the e-mail beside the name, least loaded first', async () => {
    await shared.server.signIn(shared.manager);
    renderScreen(<TeamWorkload />);
    const bo = (await screen.findByText('bo@example.test')).closest('li')!;
    const ana = screen.getByText('Ana Ortiz').closest('li')!;
    expect(within(ana).getByText('ana@example.test')).toBeInTheDocument();
    expect(within(ana).getByText('Set the anchor bolts')).toBeInTheDocument();
    expect(within(ana).getByText(/(^|\D)1 ongoing task\b/)).toBeInTheDocument();
    // Bo has nothing ongoing, so comes first, and says so.
    expect(bo.compareDocumentPosition(ana) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(bo).getByText('No ongoing tasks!')).toBeInTheDocument();
    expect(within(bo).getByText(/(^|\D)0 ongoing tasks/)).toBeInTheDocument();
  });
});
