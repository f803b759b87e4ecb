import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AdminDashboardPage } from './dashboard';
import { apiServerForFile } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';

const api = apiServerForFile(async (server) => {
  const company = await server.createCompany();
  const manager = await server.createUser(company, 'manager');
  const member = await server.createUser(company, 'team_member', { managerId: manager.id });
  // A manager without a team yet: the delete question lets the admin go on, and the server has the last word.
  const newManager = await server.createUser(company, 'manager');
  await server.signIn(company.admin);
  return { company, member, newManager };
});

/** Where row results show: fixed to the bottom of the viewport, whatever the scroll. */
const toasts = () => document.getElementById('toast-region');

describe('results of row actions in the users table', () => {
  it('show in a toast in view: a refusal with the server’s reason, until dismissed; a save', async () => {
    renderScreen(<AdminDashboardPage />, { path: '/admin' });
    const table = await screen.findByRole('table', { name: 'All Users' });

    // The question has counted no team; another admin gives them one before this admin confirms.
    await userEvent.click(await within(table).findByRole('button', { name: `Delete ${api.newManager.email}` }));
    const question = await screen.findByRole('alertdialog');
    await within(question).findByText('They have no open subtasks.');
    await api.server.createUser(api.company, 'team_member', { managerId: api.newManager.id });
    await userEvent.click(within(question).getByRole('button', { name: 'Delete' }));
    const refusal = await screen.findByRole('alert');
    expect(refusal).toHaveTextContent("Reassign this manager's team members before deleting them.");
    expect(toasts()).toContainElement(refusal);
    expect(toasts()).toHaveClass('fixed');
    await userEvent.click(within(toasts()!).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());

    await userEvent.click(within(table).getByRole('button', { name: `Edit ${api.member.email}` }));
    // The edit row loads when first used (decision record 095): the user sees it once it is there.
    await userEvent.type(await screen.findByRole('textbox', { name: 'Designation' }), 'Roofer');
    await userEvent.click(screen.getByRole('button', { name: `Save ${api.member.email}` }));
    const saved = await within(toasts()!).findByRole('status');
    expect(saved).toHaveTextContent('User updated successfully!');
  });

  it('leaves a keyboard user on the next row once the user they deleted is gone, not at the top of the page', async () => {
    const leaving = await api.server.createUser(api.company, 'team_member', { fullName: 'Ola Leaving' });
    renderScreen(<AdminDashboardPage />, { path: '/admin' });
    const table = await screen.findByRole('table', { name: 'All Users' });
    const remove = await within(table).findByRole('button', { name: `Delete ${leaving.email}` });
    const rowIndex = within(table).getAllByRole('row').indexOf(remove.closest('tr')!);

    remove.focus();
    await userEvent.keyboard('{Enter}');
    const question = await screen.findByRole('alertdialog');
    within(question).getByRole('button', { name: 'Delete' }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(within(table).queryByRole('button', { name: `Delete ${leaving.email}` })).toBeNull());
    // The row that took its place, at its first control (or the one above, had it been the last).
    const rows = within(table).getAllByRole('row');
    const next = rows[rowIndex] ?? rows[rowIndex - 1];
    await waitFor(() => expect(next.querySelector('a[href], button')).toHaveFocus());
  });
});
