import { onlineManager, useQuery } from '@tanstack/react-query';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it } from 'vitest';
import type { User } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { apiServerForFile } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { NotSavedHere } from './not-saved-here';

const shared = apiServerForFile(async (server) => ({ crew: await server.createCrew() }));

function setOnline(online: boolean) {
  act(() => onlineManager.setOnline(online));
}
afterEach(() => setOnline(true));

/** A screen of the area, as it asks for its data. */
function ProfileScreen() {
  const profile = useQuery({ queryKey: ['profile-screen'], queryFn: () => api<User>('/api/profile/') });
  return <p>{profile.data ? `Signed in as ${profile.data.email}` : 'Loading...'}</p>;
}

it('a screen never opened before, offline, says so within 3 s with a Retry, and loads once the signal is back', async () => {
  await shared.server.signIn(shared.crew.member);
  setOnline(false);
  renderScreen(
    <>
      <NotSavedHere />
      <ProfileScreen />
    </>,
  );
  const notice = await screen.findByRole('alert', {}, { timeout: 3000 });
  expect(notice).toHaveTextContent('You are offline, and part of this screen has not been saved on this device yet.');
  // Still offline, Retry asks again and the notice stays (nothing can come).
  await userEvent.click(within(notice).getByRole('button', { name: 'Retry' }));
  expect(screen.getByRole('alert')).toBeInTheDocument();

  setOnline(true);
  expect(await screen.findByText(`Signed in as ${shared.crew.member.email}`)).toBeInTheDocument();
  expect(screen.queryByRole('alert')).toBeNull();
});

it('says nothing online, or when the screen has what it needs', async () => {
  await shared.server.signIn(shared.crew.member);
  renderScreen(
    <>
      <NotSavedHere />
      <ProfileScreen />
    </>,
  );
  expect(await screen.findByText(`Signed in as ${shared.crew.member.email}`)).toBeInTheDocument();
  setOnline(false);
  expect(screen.queryByRole('alert')).toBeNull();
});
