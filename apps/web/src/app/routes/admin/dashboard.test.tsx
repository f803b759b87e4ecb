import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { insertProject } from '../../../../../server/src/test/work-factories';
import { AdminDashboardPage } from './dashboard';
import { apiServerForFile } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';

const api = apiServerForFile(async (server) => {
  const { company, manager, member } = await server.createCrew();
  // Eleven open projects: one more than the first page, so Show More has a page to ask for.
  for (let i = 1; i <= 11; i++) await insertProject(server.database.db, company.id, { managerId: manager.id, name: `Tower ${i}`, createdAt: new Date('2025-12-20T12:00:00Z') });
  await insertProject(server.database.db, company.id, { managerId: manager.id, name: 'Old depot', status: 'completed' });
  // The newest project, first on its page: run by a manager with a name.
  const named = await server.createUser(company, 'manager', { fullName: 'Ines Moreau' });
  await insertProject(server.database.db, company.id, { managerId: named.id, name: 'Harbour works' });
  await server.signIn(company.admin);
  return { company, manager, member, named };
});

const listCalls = () => api.server.requests.filter((request) => /^GET \/api\/(users|projects|daily-logs\/missing)\/$/.test(request));

describe('the admin dashboard', () => {
  it('shows every list from one call, and goes on through the list’s own call', async () => {
    api.server.requests.length = 0;
    renderScreen(<AdminDashboardPage />, { path: '/admin' });
    const users = await screen.findByRole('table', { name: 'All Users' });
    expect(within(users).getByText(api.member.email)).toBeInTheDocument();
    // A team member reports to their manager; a manager to no one: no "Manager: N/A" under the role "Manager".
    const managerColumn = within(users).getAllByRole('columnheader').findIndex((header) => header.textContent === 'Manager');
    const managerCell = (email: string) => within(users).getAllByRole('row').find((row) => row.textContent?.includes(email))!.children[managerColumn]!;
    expect(managerCell(api.member.email)).toHaveTextContent(api.manager.email);
    expect(managerCell(api.manager.email)).toBeEmptyDOMElement();
    expect(within(users).getAllByRole('columnheader')[0]).toHaveTextContent('Name and email');
    // The project tables are drawn once the users have been painted.
    const ongoing = document.getElementById('ongoing-projects')!;
    expect(await within(ongoing).findByText('Tower 11')).toBeInTheDocument();
    expect(within(ongoing).queryByText('Tower 1')).toBeNull();
    expect(await within(document.getElementById('completed-projects')!).findByText('Old depot')).toBeInTheDocument();
    await within(document.getElementById('daily-logs')!).findByText('Tower 11');

    expect(api.server.requests.filter((request) => request === 'GET /api/admin-dashboard/')).toHaveLength(1);
    // The one users call is the appraisal report's person picker (drawn after the lists), which is not a list of the dashboard.
    await waitFor(() => expect(listCalls()).toEqual(['GET /api/users/']));

    await userEvent.click(within(ongoing).getByRole('button', { name: 'Show More' }));
    await within(ongoing).findByText('Tower 1');
    expect(listCalls()).toEqual(['GET /api/users/', 'GET /api/projects/']);
  });

  it('gives project rows the users’ row actions: icons with tooltips and names, the manager’s e-mail on one line', async () => {
    renderScreen(<AdminDashboardPage />, { path: '/admin' });
    await screen.findByRole('table', { name: 'All Users' });
    const ongoing = document.getElementById('ongoing-projects')!;
    const row = (await within(ongoing).findByText('Harbour works')).closest('tr')!;
    for (const [name, title, icon] of [
      ['Edit Harbour works', 'Edit', 'pencil'],
      ['Delete Harbour works', 'Delete', 'trash'],
    ] as const) {
      const button = within(row).getByRole('button', { name });
      expect(button).toHaveAttribute('title', title);
      expect(button.querySelector(`svg[data-icon="${icon}"]`)).not.toBeNull();
      // The word stays for a phone's card, below `md`.
      expect(within(button).getByText(title)).toHaveClass('md:hidden');
    }
    // Under the manager's name the e-mail ends in "…" rather than breaking over lines; the whole address is its tooltip.
    const email = within(row).getByText(api.named.email);
    expect(email).toHaveClass('truncate');
    expect(email).toHaveAttribute('title', api.named.email);
    expect(within(row).getByText('Ines Moreau')).toBeInTheDocument();
  });

  it('falls back on the lists’ own calls when the one call fails', async () => {
    api.server.answer('GET', /^\/api\/admin-dashboard\//, { status: 500, json: { detail: 'Server error' } });
    try {
      api.server.requests.length = 0;
      renderScreen(<AdminDashboardPage />, { path: '/admin' });
      const users = await screen.findByRole('table', { name: 'All Users' });
      expect(within(users).getByText(api.member.email)).toBeInTheDocument();
      await waitFor(() => expect(listCalls()).toContain('GET /api/projects/'));
    } finally {
      api.server.clearAnswers();
    }
  });
});
