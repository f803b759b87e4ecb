import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TestUser } from '../../../../../server/src/test/factories';
import { apiServerForFile } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { CreateUserForm } from './create-user-form';

const api = apiServerForFile(async (server) => {
  const company = await server.createCompany();
  await server.signIn(company.admin);
  return { company };
});
/** The manager the first test creates, for the next. */
let manager: TestUser;

async function fillAndSubmit(email: string, password = 'a long enough password') {
  await userEvent.type(screen.getByLabelText('Email'), email);
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Create User' }));
}

describe('Create New User', () => {
  it('in a company without managers, starts on Manager and explains the order; a team member cannot be submitted', async () => {
    renderScreen(<CreateUserForm companyId={api.company.id} />);
    await waitFor(() => expect(screen.getByLabelText('Role')).toHaveDisplayValue('Manager'));
    expect(screen.getByRole('status')).toHaveTextContent('No managers available. Please create a manager first.');
    expect(screen.getByRole('button', { name: 'Create User' })).toBeEnabled();
    await userEvent.selectOptions(screen.getByLabelText('Role'), 'Team Member');
    expect(await screen.findByText('No managers available to assign to this team member. Please create a manager first.')).toBeInTheDocument();
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
    await userEvent.type(screen.getByLabelText('Full name'), 'Ana Ruiz');
    await fillAndSubmit('first.manager@example.test');
    expect(await screen.findByTestId('navigated-to')).toHaveTextContent('/admin?refresh=true');
    manager = { id: 0, email: 'first.manager@example.test', role: 'manager', companyId: api.company.id, password: '' };
  });

  it('preselects the first manager for a team member, and reports a taken e-mail on its field', async () => {
    renderScreen(<CreateUserForm companyId={api.company.id} />);
    await waitFor(() => expect(screen.getByLabelText('Manager')).toHaveDisplayValue(`Ana Ruiz (${manager.email})`));
    await fillAndSubmit('FIRST.manager@example.test');
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
    expect(screen.getByLabelText('Manager')).toHaveDisplayValue(`Ana Ruiz (${manager.email})`);
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
});
