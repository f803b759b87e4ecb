import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { User } from '@siteboard/shared';
import { injectAs, loginAs } from '../../../../../server/src/test/factories';
import { insertMajorTask, insertProject, insertSubtask } from '../../../../../server/src/test/work-factories';
import { apiServerForFile } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { DeleteUserActions, SetPasswordButton } from './user-row-actions';

const api = apiServerForFile(async (server) => {
  const company = await server.createCompany();
  const managerUser = await server.createUser(company, 'manager');
  const otherManager = await server.createUser(company, 'manager');
  const member = await server.createUser(company, 'team_member', { managerId: managerUser.id, fullName: 'Noor Haddad' });
  const idle = await server.createUser(company, 'team_member', { managerId: otherManager.id, fullName: 'Ida Idle' });
  // Two open subtasks of the member's; one sent for approval and one completed, which stay theirs.
  const project = await insertProject(server.database.db, company.id, { managerId: managerUser.id });
  const majorTask = await insertMajorTask(server.database.db, company.id, project.id);
  for (const status of ['ongoing', 'ongoing', 'pending_approval', 'completed'] as const) {
    await insertSubtask(server.database.db, { companyId: company.id, majorTaskId: majorTask.id, assignedToId: member.id, status });
  }
  await server.signIn(company.admin);
  const admin = await loginAs(server.app, company.admin);
  const users = (await injectAs(server.app, admin.access, { method: 'GET', url: '/api/users/' })).json() as User[];
  const memberUser = users.find((user) => user.id === member.id)!;
  const managerAsUser = users.find((user) => user.id === managerUser.id)!;
  const idleUser = users.find((user) => user.id === idle.id)!;
  return { memberUser, managerUser, managerAsUser, member, idleUser };
});

describe('a user row', () => {
  it('asks, in the delete confirmation, who takes over the work: their manager first', async () => {
    let chosen: number | undefined | 'not called' = 'not called';
    renderScreen(<DeleteUserActions user={api.memberUser} busy={false} focusEdit={false} onEdit={() => {}} onDelete={(heir) => (chosen = heir)} />);

    await userEvent.click(screen.getByRole('button', { name: `Delete ${api.member.email}` }));
    const dialog = await screen.findByRole('alertdialog');
    // The person by name where they have one, the e-mail beside it.
    expect(dialog).toHaveTextContent(`Are you sure you want to delete Noor Haddad (${api.member.email})?`);
    expect(await within(dialog).findByText('Their 2 open subtasks go to the person you choose.')).toBeInTheDocument();
    expect(within(dialog).getByText('The subtask they sent for approval stays theirs: their manager approves it to their credit, or declines it and gives it to someone else.')).toBeInTheDocument();
    const select = await within(dialog).findByLabelText('Give their open work to');
    await waitFor(() => expect(select).toHaveDisplayValue(`${api.managerUser.email} (their manager)`));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(chosen).toBe(api.managerUser.id);
  });

  it('asks nobody to take over the work of a user who has no open subtask', async () => {
    let chosen: number | undefined | 'not called' = 'not called';
    renderScreen(<DeleteUserActions user={api.idleUser} busy={false} focusEdit={false} onEdit={() => {}} onDelete={(heir) => (chosen = heir)} />);

    await userEvent.click(screen.getByRole('button', { name: `Delete ${api.idleUser.email}` }));
    const dialog = await screen.findByRole('alertdialog');
    expect(await within(dialog).findByText('They have no open subtasks.')).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Give their open work to')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(chosen).toBeUndefined();
  });

  it('says before deleting a manager that their team must move first, and holds Delete meanwhile', async () => {
    let deleted = false;
    renderScreen(<DeleteUserActions user={api.managerAsUser} busy={false} focusEdit={false} onEdit={() => {}} onDelete={() => (deleted = true)} />);

    await userEvent.click(screen.getByRole('button', { name: `Delete ${api.managerUser.email}` }));
    const dialog = await screen.findByRole('alertdialog');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('They manage 1 team member: give them another manager first (Edit on their row).');
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    expect(confirm).toBeDisabled();
    await userEvent.click(confirm);
    expect(deleted).toBe(false);
  });

  it('says what its icon buttons do: a tooltip on the table at 1280 px, words on a phone card', async () => {
    renderScreen(
      <>
        <DeleteUserActions user={api.memberUser} busy={false} focusEdit={false} onEdit={() => {}} onDelete={() => {}} />
        <SetPasswordButton user={api.memberUser} onDone={() => {}} />
      </>,
    );

    // From `md` up each is a pencil, a bin or a key (the three stay on one line at 1280 px in German too); pointing at it says the action, a screen reader hears whose.
    const edit = screen.getByRole('button', { name: `Edit ${api.member.email}` });
    expect(edit).toHaveAttribute('title', 'Edit');
    expect(edit.querySelector('svg[data-icon="pencil"]')).not.toBeNull();
    expect(within(edit).getByText('Edit')).toHaveClass('md:hidden');
    const remove = screen.getByRole('button', { name: `Delete ${api.member.email}` });
    const password = screen.getByRole('button', { name: `Set new password for ${api.member.email}` });
    expect(remove).toHaveAttribute('title', 'Delete');
    expect(password).toHaveAttribute('title', 'Set new password');
    expect(remove.querySelector('svg[data-icon="trash"]')).not.toBeNull();
    expect(password.querySelector('svg[data-icon="key"]')).not.toBeNull();
    // Below `md` (the card) the icon gives way to the words.
    expect(within(remove).getByText('Delete')).toHaveClass('md:hidden');
    expect(within(password).getByText('Set new password')).toHaveClass('md:hidden');
  });

  it('sets a new password the user must change at their next sign-in', async () => {
    let done = '';
    renderScreen(<SetPasswordButton user={api.memberUser} onDone={(text) => (done = text)} />);

    await userEvent.click(screen.getByRole('button', { name: `Set new password for ${api.member.email}` }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('New password'), 'short');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Set new password' }));
    expect(await within(dialog).findByText('Password must be at least 8 characters.')).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText('New password'));
    await userEvent.type(within(dialog).getByLabelText('New password'), 'set by the admin');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Set new password' }));

    await waitFor(() => expect(done).toBe(`New password set. Noor Haddad (${api.member.email}) must change it at their next sign-in.`));
    const signedIn = await api.server.app.inject({ method: 'POST', url: '/api/token/', payload: { email: api.member.email, password: 'set by the admin', role: 'team_member', company_id: api.member.companyId } });
    expect(signedIn.json().must_change_password).toBe(true);
  });
});
