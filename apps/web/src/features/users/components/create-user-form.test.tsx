import { screen, waitFor, within } from '@testing-library/react';
import { Link } from 'react-router';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiServerForFile } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { CreateUserForm } from './create-user-form';

// Each test reads the state it needs from the setup, never from another test: a company without
// managers, and one with its manager (whom the forms preselect).
const api = apiServerForFile(async (server) => {
  const empty = await server.createCompany();
  const company = await server.createCompany();
  const manager = await server.createUser(company, 'manager', { email: 'ana.ruiz@example.test', fullName: 'Ana Ruiz' });
  return { empty, company, manager };
});
beforeEach(() => api.server.signIn(api.company.admin));

async function fillAndSubmit(email: string, password = 'a long enough password') {
  await userEvent.type(screen.getByLabelText('Email'), email);
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Create User' }));
}

describe('Create New User', () => {
  it('in a company without managers, starts on Manager without asking for one first; a team member cannot be submitted', async () => {
    await api.server.signIn(api.empty.admin);
    renderScreen(<CreateUserForm companyId={api.empty.id} />);
    await waitFor(() => expect(screen.getByLabelText('Role')).toHaveDisplayValue('Manager'));
    // On Manager once the managers are known to be none: creating the first one is not told to create one first.
    expect(screen.queryByText(/Please create a manager first/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Create User' })).toBeEnabled();
    // A team member needs a manager: that is said at the manager field, which cannot be sent.
    await userEvent.selectOptions(screen.getByLabelText('Role'), 'Team Member');
    expect(await screen.findByText('No managers available to assign to this team member. Please create a manager first.')).toBeInTheDocument();
    expect(screen.getByLabelText('Manager')).toHaveAccessibleDescription(/No managers available to assign to this team member/);
    expect(screen.getByRole('button', { name: 'Create User' })).toBeDisabled();
  });

  it('says e-mail and password are required (spec §8) on both fields, sending nothing', async () => {
    renderScreen(<CreateUserForm companyId={api.company.id} />);
    await userEvent.selectOptions(await screen.findByLabelText('Role'), 'Manager');
    const posts = api.server.requests.filter((request) => request === 'POST /api/users/').length;
    await userEvent.click(screen.getByRole('button', { name: 'Create User' }));
    expect(await screen.findAllByText('Email and password are required.')).toHaveLength(2);
    expect(api.server.requests.filter((request) => request === 'POST /api/users/')).toHaveLength(posts);
  });

  it('creates a manager and goes to /admin?refresh=true', async () => {
    renderScreen(<CreateUserForm companyId={api.company.id} />);
    await userEvent.selectOptions(await screen.findByLabelText('Role'), 'Manager');
    // After Ana Ruiz by e-mail: the manager the other tests see first stays Ana.
    await userEvent.type(screen.getByLabelText('Full name'), 'Bea Soto');
    await fillAndSubmit('bea.soto@example.test');
    expect(await screen.findByTestId('navigated-to')).toHaveTextContent('/admin?refresh=true');
  });

  it('has the new person choose a password of their own at the first sign-in, unless the admin unticks it', async () => {
    for (const [email, asked] of [['cy.lee@example.test', true], ['di.mora@example.test', false]] as const) {
      const view = renderScreen(<CreateUserForm companyId={api.company.id} />);
      await userEvent.selectOptions(await screen.findByLabelText('Role'), 'Manager');
      const box = screen.getByLabelText('Ask for a new password at the first sign-in');
      expect(box).toBeChecked();
      if (!asked) await userEvent.click(box);
      await fillAndSubmit(email);
      expect(await screen.findByTestId('navigated-to')).toHaveTextContent('/admin?refresh=true');
      const signIn = await api.server.app.inject({ method: 'POST', url: '/api/token/', payload: { email, password: 'a long enough password', role: 'manager', company_id: api.company.id } });
      expect(signIn.statusCode, signIn.body).toBe(200);
      expect(signIn.json().must_change_password, email).toBe(asked);
      view.unmount();
    }
  });

  it('preselects the first manager for a team member, and reports a taken e-mail on its field', async () => {
    renderScreen(<CreateUserForm companyId={api.company.id} />);
    await waitFor(() => expect(screen.getByLabelText('Manager')).toHaveDisplayValue(`Ana Ruiz (${api.manager.email})`));
    await fillAndSubmit('ANA.ruiz@example.test');
    expect(await screen.findByText('A user with this email already exists. Please use a different email.')).toBeInTheDocument();
    expect(screen.queryByTestId('navigated-to')).toBeNull();
  });

  it('waits for the managers before it can be sent, and says when they did not load', async () => {
    const first = renderScreen(<CreateUserForm companyId={api.company.id} />);
    expect(screen.getByText('Please wait while managers are being loaded.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create User' })).toBeDisabled();
    // The select shows its first option as soon as the managers arrive; the form takes it as its
    // value one render later (an effect), and only then can it be sent.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create User' })).toBeEnabled());
    expect(screen.getByLabelText('Manager')).toHaveDisplayValue(`Ana Ruiz (${api.manager.email})`);
    expect(screen.queryByText('Please wait while managers are being loaded.')).toBeNull();
    first.unmount();

    const usersList = /^\/api\/users\/(\?.*)?$/;
    api.server.answer('GET', usersList, { status: 403, json: { detail: 'You do not have permission to perform this action.' } });
    const refused = renderScreen(<CreateUserForm companyId={api.company.id} />);
    expect(await screen.findByText('Failed to load managers: You do not have permission to perform this action.')).toBeInTheDocument();
    refused.unmount();

    api.server.clearAnswers();
    api.server.answer('GET', usersList, 'network error');
    renderScreen(<CreateUserForm companyId={api.company.id} />);
    expect(await screen.findByText('Failed to load managers. Please try again.')).toBeInTheDocument();
  });

  it('without input, leaves through a link at once', async () => {
    renderScreen(
      <>
        <Link to="/admin">Dashboard</Link>
        <CreateUserForm companyId={api.company.id} />
      </>,
      { path: '/admin/create-user', route: '/admin/create-user' },
    );
    await userEvent.click(screen.getByRole('link', { name: 'Dashboard' }));
    expect(await screen.findByTestId('navigated-to')).toHaveTextContent('/admin');
  });

  it('with input, leaving through a link asks first', async () => {
    renderScreen(
      <>
        <Link to="/admin">Dashboard</Link>
        <CreateUserForm companyId={api.company.id} />
      </>,
      { path: '/admin/create-user', route: '/admin/create-user' },
    );
    await userEvent.type(await screen.findByLabelText('Email'), 'half.typed@example.test');
    await userEvent.click(screen.getByRole('link', { name: 'Dashboard' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Leave this form?' });
    expect(ask).toHaveTextContent('it is not kept (it includes a password)');
    await userEvent.click(within(ask).getByRole('button', { name: 'Stay' }));
    expect(screen.getByLabelText('Email')).toHaveValue('half.typed@example.test');
    await userEvent.click(screen.getByRole('link', { name: 'Dashboard' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Leave' }));
    expect(await screen.findByTestId('navigated-to')).toHaveTextContent('/admin');
  });
});
