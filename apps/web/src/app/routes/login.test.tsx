import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { storage } from '../../lib/storage';
import { apiServerForFile } from '../../test/api-server';
import { renderScreen } from '../../test/render';
import { CompanySelectionPage } from './company-selection';
import { LoginPage } from './login';

const api = apiServerForFile(async (server) => {
  const company = await server.createCompany();
  const manager = await server.createUser(company, 'manager');
  return { company, manager };
});
afterEach(() => localStorage.clear());

const loginRoutes = [{ path: '/company-selection', element: <CompanySelectionPage /> }];

describe('the sign-in page', () => {
  it('says a company id it does not know is unknown, with no form, and leads back to company selection', async () => {
    renderScreen(<LoginPage />, { path: '/login?companyId=2147483000', route: '/login', routes: loginRoutes });
    expect(await screen.findByText('No company with the id 2147483000 is known here. The link may be old or mistyped.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Log In' })).toBeNull();
    expect(screen.queryByLabelText('Password')).toBeNull();

    await userEvent.click(screen.getByRole('link', { name: 'Go to company selection' }));
    expect(await screen.findByRole('heading', { name: 'Select Company' })).toBeInTheDocument();
    // Each sign-in page is named in the tab and by a screen reader, not "SiteBoard" for all.
    await expect.poll(() => document.title).toBe('Select Company · SiteBoard');
  });

  it('says so for an id that is not a number too', async () => {
    renderScreen(<LoginPage />, { path: '/login?companyId=abc', route: '/login' });
    expect(await screen.findByRole('link', { name: 'Go to company selection' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Log In' })).toBeNull();
  });

  it("offers the form for a company that exists", async () => {
    renderScreen(<LoginPage />, { path: `/login?companyId=${api.company.id}`, route: '/login' });
    expect(screen.getByRole('button', { name: 'Log In' })).toBeInTheDocument();
    await screen.findByRole('heading', { name: 'Sign In' });
    expect(document.title).toBe('Sign In · SiteBoard');
    // The server has answered: the form stays.
    await expect.poll(() => api.server.requests.includes(`GET /api/companies/${api.company.id}/`)).toBe(true);
    expect(screen.getByRole('button', { name: 'Log In' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Go to company selection' })).toBeNull();
    // This server sends no mail: no reset link offered, the spec's words instead.
    await expect.poll(() => api.server.requests.includes('GET /api/email/')).toBe(true);
    expect(screen.getByText('Forgot password? Ask your company admin.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Forgot your password?' })).toBeNull();
  });

  it('names the company this device signed in to after a sign-out or a reload, and no other', async () => {
    renderScreen(<LoginPage />, { path: `/login?companyId=${api.company.id}`, route: '/login' });
    await userEvent.selectOptions(await screen.findByLabelText('Role'), 'manager');
    await userEvent.type(screen.getByLabelText('Email'), api.manager.email);
    await userEvent.type(screen.getByLabelText('Password'), api.manager.password);
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    await screen.findByTestId('navigated-to');
    cleanup();
    // Signed out: the session is gone, the company stays known on this shared tablet.
    storage.clearSession();

    renderScreen(<LoginPage />, { path: `/login?companyId=${api.company.id}`, route: '/login' });
    expect(await screen.findByText(`Company: ${api.company.name}`)).toBeInTheDocument();
    cleanup();
    const other = await api.server.createCompany();
    renderScreen(<LoginPage />, { path: `/login?companyId=${other.id}`, route: '/login' });
    await screen.findByRole('button', { name: 'Log In' });
    expect(screen.queryByText(/^Company: /)).toBeNull();
  });
});

describe('a signed-in user', () => {
  it.each([
    ['/login', LoginPage],
    ['/company-selection', CompanySelectionPage],
  ] as const)('who opens %s goes to their dashboard', async (route, Page) => {
    await api.server.signIn(api.manager);
    renderScreen(<Page />, { path: `${route}?companyId=${api.manager.companyId}`, route });
    expect(await screen.findByTestId('navigated-to')).toHaveTextContent('/manager');
    expect(storage.token).toBeTruthy();
  });
});
