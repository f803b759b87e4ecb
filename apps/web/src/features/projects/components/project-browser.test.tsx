import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { insertProject } from '../../../../../server/src/test/work-factories';
import { apiServerForFile } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { ProjectBrowser } from './project-browser';

const shared = apiServerForFile(async (server) => {
  const crew = await server.createCrew();
  const stamp = Date.now().toString(36);
  const names = { planned: `Northgate School ${stamp}`, ongoing: `Harbour Bridge ${stamp}` };
  await insertProject(server.database.db, crew.company.id, { managerId: crew.manager.id, name: names.planned, status: 'planned', startDate: '2031-01-10', endDate: '2031-06-30' });
  await insertProject(server.database.db, crew.company.id, { managerId: crew.manager.id, name: names.ongoing, status: 'ongoing', startDate: '2030-01-10', endDate: '2031-06-30' });
  return { ...crew, names };
});

describe('the projects screen', () => {
  it('marks a planned project in the Ongoing tab as planned, and an ongoing one with nothing', async () => {
    await shared.server.signIn(shared.manager);
    renderScreen(<ProjectBrowser renderTasks={() => null} />);

    const planned = (await screen.findByRole('button', { name: new RegExp(shared.names.planned) })).closest('li')!;
    const ongoing = screen.getByRole('button', { name: new RegExp(shared.names.ongoing) }).closest('li')!;
    expect(within(planned).getByText('Planned')).toBeInTheDocument();
    expect(within(ongoing).queryByText('Planned')).toBeNull();
    expect(within(ongoing).queryByText('Ongoing')).toBeNull();
  });
});
