import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@siteboard/shared';
import { injectAs, loginAs, type TestUser } from '../../../../../server/src/test/factories';
import { startApiServer, type ApiServer } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { DeleteUserActions, SetPasswordButton } from './user-row-actions';

let server: ApiServer;
let memberUser: User;
let managerUser: TestUser;
let member: TestUser;

beforeAll(async () => {
  server = await startApiServer();
  const company = await server.createCompany();
  managerUser = await server.createUser(company, 'manager');
  await server.createUser(company, 'manager');
  member = await server.createUser(company, 'team_member', { managerId: managerUser.id });
  await server.signIn(company.admin);
  const admin = await loginAs(server.app, company.admin);
  const users = (await injectAs(server.app, admin.access, { method: 'GET', url: '/api/users/' })).json() as User[];
  memberUser = users.find((user) => user.id === member.id)!;
});
afterAll(() => server.close());

describe('a user row', () => {
  it('asks, in the delete confirmation, who takes over the work: their manager first', async () => {
    let chosen: number | undefined | 'not called' = 'not called';
    renderScreen(<DeleteUserActions user={memberUser} busy={false} focusEdit={false} onEdit={() => {}} onDelete={(heir) => (chosen = heir)} />);

    await userEvent.click(screen.getByRole('button', { name: `Delete ${member.email}` }));
    const dialog = await screen.findByRole('alertdialog');
    const select = await within(dialog).findByLabelText('Give their open work to');
    await waitFor(() => expect(select).toHaveDisplayValue(`${managerUser.email} (their manager)`));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(chosen).toBe(managerUser.id);
  });

  it('sets a new password the user must change at their next sign-in', async () => {
    let done = '';
    renderScreen(<SetPasswordButton user={memberUser} onDone={(text) => (done = text)} />);

    await userEvent.click(screen.getByRole('button', { name: `Set new password for ${member.email}` }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('New password'), 'short');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Set new password' }));
    expect(await within(dialog).findByText('Password must be at least 8 characters.')).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText('New password'));
    await userEvent.type(within(dialog).getByLabelText('New password'), 'set by the admin');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Set new password' }));

    await waitFor(() => expect(done).toBe(`New password set. ${member.email} must change it at their next sign-in.`));
    const signedIn = await server.app.inject({ method: 'POST', url: '/api/token/', payload: { email: member.email, password: 'set by the admin', role: 'team_member', company_id: member.companyId } });
    expect(signedIn.json().must_change_password).toBe(true);
  });
});
