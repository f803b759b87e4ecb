// jsdom has no IndexedDB (the kept answers and the offline queue live there): an in-memory one stands in for the browser's.
import 'fake-indexeddb/auto';
import { useQuery } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, get, set } from 'idb-keyval';
import { useState } from 'react';
import { expect, it } from 'vitest';
import type { User } from '@siteboard/shared';
import { injectAs, loginAs } from '../../../../../server/src/test/factories';
import { api, apiPage } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { storage } from '../../../lib/storage';
import { apiServerForFile } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { queue, type QueuedEntry } from '../offline-queue';
import OfflineTools from './offline-tools';

const PHONE = '+52 55 1234 5678';

const shared = apiServerForFile(async (server) => {
  const crew = await server.createCrew();
  // A manager with no team of their own yet: an admin may make them a team member.
  const lead = await server.createUser(crew.company, 'manager');
  const admin = await loginAs(server.app, crew.company.admin);
  const phone = await injectAs(server.app, admin.access, { method: 'PATCH', url: `/api/users/${crew.member.id}/`, payload: { mobile_number: PHONE } });
  expect(phone.statusCode).toBe(200);
  return { ...crew, lead, admin };
});

/** The company's people as a picker lists them (a manager sees their phones), and, for a team member, their own screen. */
function Screens() {
  const { user, refreshProfile } = useAuth();
  const [peopleOpen, setPeopleOpen] = useState(false);
  return (
    <>
      <button onClick={() => setPeopleOpen(true)}>Open the people list</button>
      <button onClick={() => void refreshProfile()}>Read my profile</button>
      {peopleOpen && <People />}
      {user?.role === 'team_member' && <MemberScreen />}
    </>
  );
}

function People() {
  const people = useQuery({ queryKey: ['users', 'assignable'], queryFn: async () => (await apiPage<User>('/api/users/', { query: { limit: 100 } })).items });
  return (
    <ul>
      {people.data?.map((person) => (
        <li key={person.id}>
          {person.email} {person.mobile_number ?? 'no phone'}
        </li>
      ))}
    </ul>
  );
}

function MemberScreen() {
  const profile = useQuery({ queryKey: ['profile-screen'], queryFn: () => api<User>('/api/profile/') });
  return <p>{profile.data ? `Signed in as ${profile.data.email}, ${profile.data.role}` : 'Loading...'}</p>;
}

it('forgets what a manager’s screens held, on the device too, once an admin made them a team member, and keeps their queued writes', async () => {
  const { lead, member, manager, admin } = shared;
  await shared.server.signIn(lead);
  // Signed in on this device before: their area draws at once, as the manager they were.
  const profile = await injectAs(shared.server.app, storage.token ?? '', { method: 'GET', url: '/api/profile/' });
  storage.writeUser(profile.json());
  const kept = createStore('siteboard-cache', 'queries');
  // A comment the server refused while they were offline: theirs, to send again or discard.
  const outbox = createStore('siteboard-offline', 'writes');
  const refused: QueuedEntry = {
    id: 1,
    userId: lead.id,
    createdAt: new Date().toISOString(),
    status: 'failed',
    kind: 'comment',
    method: 'POST',
    path: '/api/subtasks/999/comments/',
    idempotencyKey: 'refused-comment',
    json: { text: 'Rebar delivered to gate 2' },
    detail: 'Not found.',
    refusedWith: 404,
  };
  await set(refused.id, refused, outbox);

  renderScreen(
    <>
      <OfflineTools />
      <Screens />
    </>,
  );
  // The device's offline parts are up (the queue has read what waits), then the people list opens.
  await waitFor(() => expect(queue.entries()).toEqual([refused]));
  await userEvent.click(screen.getByRole('button', { name: 'Open the people list' }));
  expect(await screen.findByText(`${member.email} ${PHONE}`)).toBeInTheDocument();
  await waitFor(async () => expect(await get(`siteboard-queries-${lead.id}`, kept)).toContain(PHONE), { timeout: 5_000 });

  // An admin makes them a team member while they are signed in; the app learns it from their profile.
  const demoted = await injectAs(shared.server.app, admin.access, { method: 'PATCH', url: `/api/users/${lead.id}/`, payload: { role: 'team_member', manager_id: manager.id } });
  expect(demoted.statusCode).toBe(200);
  await userEvent.click(screen.getByRole('button', { name: 'Read my profile' }));

  expect(await screen.findByText(`Signed in as ${lead.email}, team_member`)).toBeInTheDocument();
  // The device keeps what the team member's screens hold now, and nothing the manager's held.
  await waitFor(async () => expect(await get(`siteboard-queries-${lead.id}`, kept)).toMatch(/"buster":"1:team_member".*"profile-screen"/), { timeout: 5_000 });
  expect(await get(`siteboard-queries-${lead.id}`, kept)).not.toContain(PHONE);
  // Their screens show the people as a team member sees them.
  expect(await screen.findByText(`${member.email} no phone`)).toBeInTheDocument();
  expect(screen.queryByText(PHONE, { exact: false })).not.toBeInTheDocument();
  // Their refused comment is still theirs to send again.
  expect(await get(refused.id, outbox)).toEqual(refused);
  expect(queue.entries()).toEqual([refused]);
});
