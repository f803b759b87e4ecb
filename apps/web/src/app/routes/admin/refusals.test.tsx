import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { insertProject } from '../../../../../server/src/test/work-factories';
import { apiServerForFile } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { AdminDashboardPage } from './dashboard';

const api = apiServerForFile(async (server) => {
  const company = await server.createCompany();
  const manager = await server.createUser(company, 'manager');
  const member = await server.createUser(company, 'team_member', { managerId: manager.id });
  await insertProject(server.database.db, company.id, { managerId: manager.id, name: 'Harbour Bridge Repairs', status: 'ongoing' });
  return { company, manager, member };
});

describe("the admin dashboard's refusals, in the spec words", () => {
  it('a vanished project, a failed project delete, a forbidden user delete, a failed load', async () => {
    await api.server.signIn(api.company.admin);
    const first = renderScreen(<AdminDashboardPage />, { path: '/admin' });
    // The section is drawn anew once the dashboard's one call answers: take it after its rows came.
    await screen.findByRole('button', { name: 'Edit Harbour Bridge Repairs' });
    const ongoing = screen.getByRole('region', { name: 'Ongoing Projects' });
    await userEvent.click(within(ongoing).getByRole('button', { name: 'Edit Harbour Bridge Repairs' }));
    // The row's manager is chosen once the managers have loaded.
    await waitFor(() => expect(within(ongoing).getByRole('combobox', { name: 'Manager' })).toHaveValue(String(api.manager.id)));
    api.server.answer('PATCH', /^\/api\/projects\/\d+\/$/, { status: 404, json: { detail: 'Project not found.' } });
    const listReads = () => api.server.requests.filter((request) => request === 'GET /api/projects/').length;
    const readsBefore = listReads();
    await userEvent.click(within(ongoing).getByRole('button', { name: 'Save Harbour Bridge Repairs' }));
    expect(await screen.findByText('Project not found. Refreshing project list...')).toBeInTheDocument();
    await waitFor(() => expect(listReads()).toBeGreaterThan(readsBefore));

    api.server.answer('DELETE', /^\/api\/projects\/\d+\/$/, { status: 500, json: { detail: 'Internal server error.' } });
    await userEvent.click(within(ongoing).getByRole('button', { name: 'Delete Harbour Bridge Repairs' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete project: Internal server error.')).toBeInTheDocument();

    // The delete carries who takes over the work (?reassign_to=…): the pattern takes any query.
    api.server.answer('DELETE', /^\/api\/users\/\d+\/(\?.*)?$/, { status: 403, json: { detail: 'You do not have permission to perform this action.' } });
    const users = screen.getByRole('table', { name: 'All Users' });
    await userEvent.click(await within(users).findByRole('button', { name: `Delete ${api.member.email}` }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('You do not have permission to delete this user. Please ensure you are authorized.')).toBeInTheDocument();
    first.unmount();

    // The users list loads itself when the dashboard's one call fails (decision record 068); then its own call fails.
    api.server.answer('GET', /^\/api\/admin-dashboard\/$/, { status: 500, json: { detail: 'Internal server error.' } });
    api.server.answer('GET', /^\/api\/users\/\?/, { status: 500, json: { detail: 'Internal server error.' } });
    renderScreen(<AdminDashboardPage />, { path: '/admin' });
    expect(await screen.findByText('Failed to load data: Internal server error.')).toBeInTheDocument();
  });

  it('asks for nothing without a company in the profile or without a token, and says why', async () => {
    await api.server.signIn(api.company.admin);
    const profile = await api.server.app.inject({ url: '/api/profile/', headers: { authorization: `Bearer ${localStorage.getItem('token')}` } });
    api.server.answer('GET', /^\/api\/profile\/$/, { status: 200, json: { ...(profile.json() as object), company_id: null } });
    const first = renderScreen(<AdminDashboardPage />, { path: '/admin' });
    expect(await screen.findByText('User company ID is not defined. Please ensure the user profile includes company information.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
    first.unmount();

    api.server.clearAnswers();
    localStorage.removeItem('token');
    const before = api.server.requests.length;
    renderScreen(<AdminDashboardPage />, { path: '/admin' });
    expect(await screen.findByText('No authentication token found.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
    expect(api.server.requests.slice(before).filter((request) => request.startsWith('GET /api/users') || request.startsWith('GET /api/projects'))).toEqual([]);
  });
});
