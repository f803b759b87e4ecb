import { useQuery } from '@tanstack/react-query';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { User } from '@siteboard/shared';
import { injectAs, loginAs } from '../../../server/src/test/factories';
import { api } from '../lib/api-client';
import { storage } from '../lib/storage';
import { apiServerForFile } from '../test/api-server';
import { renderScreen } from '../test/render';
import { LoginPage } from './routes/login';

const shared = apiServerForFile(async (server) => ({ crew: await server.createCrew() }));
afterEach(() => localStorage.clear());

/** A screen of the manager's area that asks the server for something as it opens. */
function ManagerScreen() {
  const profile = useQuery({ queryKey: ['profile-for-test'], queryFn: () => api<User>('/api/profile/') });
  return <p>{profile.data ? `Signed in as ${profile.data.email}` : 'Loading...'}</p>;
}

const routes = [{ path: '/login', element: <LoginPage /> }];

async function signInWithStoredUser(user: typeof shared.crew.manager) {
  await shared.server.signIn(user);
  const answer = await fetch('/api/profile/', { headers: { Authorization: `Bearer ${storage.token}` } });
  storage.writeUser((await answer.json()) as User);
}

describe('a session that ended by itself', () => {
  it('after a password change elsewhere, says why, keeps who it was, and returns to the open page', async () => {
    const { server, crew } = shared;
    const manager = { ...crew.manager };
    await signInWithStoredUser(manager);
    // On another device the manager changes their password: every other login of theirs ends.
    const other = await loginAs(server.app, manager);
    const changed = await injectAs(server.app, other.access, {
      method: 'POST',
      url: '/api/profile/password/',
      payload: { current_password: manager.password, new_password: 'a brand new password' },
    });
    expect(changed.statusCode).toBe(204);
    manager.password = 'a brand new password';

    const { router } = renderScreen(<ManagerScreen />, { path: '/manager/projects?status=ongoing', route: '/manager/*', routes });

    expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Your session ended, so you were signed out');
    expect(screen.getByText(`Company: ${crew.company.name}`)).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue(manager.email);
    expect(screen.getByLabelText('Role')).toHaveValue('manager');
    expect(screen.getByLabelText('Password')).toHaveFocus();

    await userEvent.type(screen.getByLabelText('Password'), manager.password);
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText(`Signed in as ${manager.email}`)).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe('/manager/projects?status=ongoing');
  });

  it('after a sign-out in another tab, says so at once and, signed in again, returns to the page', async () => {
    const { crew } = shared;
    await signInWithStoredUser(crew.member);
    const { router } = renderScreen(<ManagerScreen />, { path: '/team-member/tasks', route: '/team-member/*', routes });
    expect(await screen.findByText(`Signed in as ${crew.member.email}`)).toBeInTheDocument();

    // The other tab cleared the shared storage; the browser tells this tab with a storage event.
    const token = storage.token;
    storage.clearSession();
    act(() => void window.dispatchEvent(new StorageEvent('storage', { key: 'token', oldValue: token, newValue: null, storageArea: localStorage })));

    expect(await screen.findByText('You signed out in another tab or window. Sign in again to continue where you were.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue(crew.member.email);
    await userEvent.type(screen.getByLabelText('Password'), crew.member.password);
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText(`Signed in as ${crew.member.email}`)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/team-member/tasks');
  });

  it('a deliberate sign-out lands on a plain sign-in page', async () => {
    renderScreen(<LoginPage />, { path: `/login?companyId=${shared.crew.company.id}`, route: '/login' });
    expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.queryByText(/Your session ended/)).toBeNull();
    expect(screen.getByLabelText('Email')).toHaveValue('');
  });
});
