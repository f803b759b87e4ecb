import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../test/api-server';
import { renderScreen } from '../../test/render';
import { LoginPage } from './login';
import { SignupPage } from './signup';

let server: ApiServer;
beforeAll(async () => {
  server = await startApiServer();
});
afterAll(() => server.close());

describe('after sign-up', () => {
  it("the sign-in page has the new admin's e-mail and role filled in, and signs them in with their password", async () => {
    renderScreen(<SignupPage />, { path: '/signup', routes: [{ path: '/login', element: <LoginPage /> }] });
    const email = `new.admin.${Date.now()}@example.test`;
    await userEvent.type(screen.getByLabelText('Company name'), `Prefill Builders ${Date.now()}`);
    await userEvent.type(screen.getByLabelText('Company password'), 'a company password');
    await userEvent.type(screen.getByLabelText('Admin email'), email);
    await userEvent.type(screen.getByLabelText('Admin password'), 'a long enough password');
    await userEvent.click(screen.getByRole('button', { name: 'Create company' }));

    expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue(email);
    expect(screen.getByLabelText('Role')).toHaveValue('admin');
    expect(screen.getByLabelText('Password')).toHaveFocus();

    await userEvent.type(screen.getByLabelText('Password'), 'a long enough password');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByTestId('navigated-to')).toHaveTextContent('/admin');
  });
});
