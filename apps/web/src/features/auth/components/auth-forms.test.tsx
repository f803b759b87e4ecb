import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { storage } from '../../../lib/storage';
import type { TestCompany } from '../../../../../server/src/test/factories';
import { CompanySelectionForm } from './company-selection-form';
import { LoginForm } from './login-form';
import { SignupForm } from './signup-form';

let server: ApiServer;
let company: TestCompany;
beforeAll(async () => {
  server = await startApiServer();
  company = await server.createCompany();
});
afterAll(() => server.close());

describe('company selection', () => {
  it('asks for both fields before asking the server', async () => {
    renderScreen(<CompanySelectionForm />);
    const before = server.requests.filter((request) => request.startsWith('POST')).length;
    await userEvent.click(screen.getByRole('button', { name: 'Proceed to Login' }));
    expect(await screen.findAllByText(/is required/)).toHaveLength(2);
    expect(server.requests.filter((request) => request.startsWith('POST'))).toHaveLength(before);
  });

  it("shows the server's reason for a wrong password and stays", async () => {
    renderScreen(<CompanySelectionForm />);
    await userEvent.type(screen.getByLabelText('Company name'), company.name);
    await userEvent.type(screen.getByLabelText('Password'), 'not the password');
    await userEvent.click(screen.getByRole('button', { name: 'Proceed to Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/password/i);
    expect(screen.queryByTestId('navigated-to')).toBeNull();
  });

  it("remembers the company and goes to its login with the right password", async () => {
    renderScreen(<CompanySelectionForm />, { path: '/company-selection' });
    await userEvent.type(screen.getByLabelText('Company name'), company.name.toUpperCase());
    await userEvent.type(screen.getByLabelText('Password'), company.password);
    await userEvent.click(screen.getByRole('button', { name: 'Proceed to Login' }));
    expect(await screen.findByTestId('navigated-to')).toHaveTextContent(`/login?companyId=${company.id}`);
    expect(storage.companyId).toBe(String(company.id));
  });
});

/** Fills the sign-in form as a person would and presses "Log In". */
async function logIn(role: string, email: string, password: string) {
  renderScreen(<LoginForm companyId={String(company.id)} />);
  await userEvent.selectOptions(screen.getByLabelText('Role'), role);
  await userEvent.type(screen.getByLabelText('Email'), email);
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
}

describe('login', () => {
  it('names every missing field at once', async () => {
    renderScreen(<LoginForm companyId={String(company.id)} />);
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(screen.getAllByText(/required|valid|Select/i).length).toBeGreaterThanOrEqual(3));
  });

  it('refuses a wrong password with the spec message and keeps nothing stored', async () => {
    await logIn('Admin', company.admin.email, 'wrong password');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid credentials or server error. Please try again.');
    expect(storage.token).toBeNull();
  });

  it('refuses the right password with the wrong role in the same words, and says to check the role', async () => {
    await logIn('Manager', company.admin.email, company.admin.password);
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid credentials or server error. Please try again.');
    expect(screen.getByText('Check the role as well: it must be the one your account has.')).toBeInTheDocument();
    expect(storage.token).toBeNull();
  });

  it('signs the admin in and goes to /admin', async () => {
    await logIn('Admin', company.admin.email, company.admin.password);
    expect(await screen.findByTestId('navigated-to')).toHaveTextContent('/admin');
    expect(storage.token).toBeTruthy();
    expect(storage.readUser()?.email).toBe(company.admin.email);
    storage.clearSession();
  });
});

describe('sign-up', () => {
  it('shows field errors from the shared schema before sending anything', async () => {
    renderScreen(<SignupForm />);
    await userEvent.click(screen.getByRole('button', { name: 'Create company' }));
    expect(await screen.findByText('Email is required.')).toBeInTheDocument();
  });

  it("reports a taken company name on its field", async () => {
    renderScreen(<SignupForm />);
    await userEvent.type(screen.getByLabelText('Company name'), company.name);
    await userEvent.type(screen.getByLabelText('Company password'), 'a company password');
    await userEvent.type(screen.getByLabelText('Admin email'), 'someone@example.test');
    await userEvent.type(screen.getByLabelText('Admin password'), 'a long enough password');
    await userEvent.click(screen.getByRole('button', { name: 'Create company' }));
    expect(await screen.findByText(/already/i)).toBeInTheDocument();
  });
});
