import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { User } from '@siteboard/shared';
import { apiServerForFile } from '../test/api-server';
import { renderScreen } from '../test/render';
import { useAuth } from './auth';
import { api, ApiError } from './api-client';
import { storage } from './storage';

const shared = apiServerForFile(async (server) => ({ crew: await server.createCrew() }));

function SignedInArea() {
  const { user, logout } = useAuth();
  return (
    <div>
      <p>{user?.email ?? 'nobody'}</p>
      <button type="button" onClick={() => void logout()}>
        Logout
      </button>
    </div>
  );
}

// A test that slows the network down puts back the API server's fetch it found, not the browser's.
let apiServerFetch: typeof fetch;
beforeEach(() => {
  apiServerFetch = globalThis.fetch;
});
afterEach(() => {
  globalThis.fetch = apiServerFetch;
});

it('a logout while the profile is on its way leaves no user behind for the next visit', async () => {
  const { server, crew } = shared;
  await server.signIn(crew.member);
  const profile = (await (await fetch('/api/profile/', { headers: { Authorization: `Bearer ${storage.token}` } })).json()) as User;
  storage.writeUser(profile);

  // The network is slow: the session's profile check answers only after the person has logged out.
  const apiFetch = globalThis.fetch;
  let answerProfile = () => {};
  let profileRead = () => {};
  const lateProfileRead = new Promise<void>((resolve) => (profileRead = resolve));
  const profileAsked = new Promise<void>((asked) => {
    globalThis.fetch = async (input, init) => {
      if (!String(input).includes('/api/profile/')) return apiFetch(input, init);
      asked();
      await new Promise<void>((resolve) => (answerProfile = resolve));
      const response = await apiFetch(input, init);
      // Tells the test when the app has read the answer (what it does with it follows in the same turn).
      const json = response.json.bind(response);
      response.json = () => json().finally(() => setTimeout(profileRead, 0));
      return response;
    };
  });

  renderScreen(<SignedInArea />);
  expect(screen.getByText(profile.email)).toBeInTheDocument();
  await profileAsked;
  await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
  expect(await screen.findByTestId('navigated-to')).toHaveTextContent(`/login?companyId=${crew.company.id}`);

  answerProfile();
  await lateProfileRead;
  // The late answer is dropped: the device holds no user and no token for the next visit to find.
  expect(localStorage.getItem('user')).toBeNull();
  expect(storage.token).toBeNull();
});

// An access token expires while the server cannot reach its database for a moment: before, the
// refresh's 503 signed the person out (and a phone's queued writes lost their session with it).
it('keeps the session when the token refresh meets a server that cannot answer now, and refreshes once it can', async () => {
  const { server, crew } = shared;
  await server.signIn(crew.member);
  const refreshToken = storage.refreshToken ?? '';
  storage.setTokens('expired.access.token', refreshToken);
  server.answer('POST', /^\/api\/token\/refresh\/$/, { status: 503, json: { detail: 'The connection to the database was lost. Try again in a moment.' } });

  const failed = await api('/api/profile/').catch((error: unknown) => error);

  expect(failed).toBeInstanceOf(ApiError);
  expect(failed).toMatchObject({ status: 503, detail: 'The connection to the database was lost. Try again in a moment.' });
  expect(storage.refreshToken).toBe(refreshToken);
  server.clearAnswers();
  expect(await api<User>('/api/profile/')).toMatchObject({ email: crew.member.email });
  expect(storage.token).not.toBe('expired.access.token');
});
