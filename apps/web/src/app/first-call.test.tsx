import { screen, waitFor, within } from '@testing-library/react';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { users } from '../../../server/src/schema/users';
import { FIRST_CALLS, preloadSource } from '../../route-preload';
import { AdminDashboardPage } from './routes/admin/dashboard';
import { TaskDashboard } from '../features/tasks/components/task-dashboard';
import { apiServerForFile } from '../test/api-server';
import { createCrewWithWork } from '../test/crew-work';
import { renderScreen } from '../test/render';
import type { FirstCall } from '../lib/first-call';
import { LANGUAGES } from '../lib/i18n';
import { storage } from '../lib/storage';

const shared = apiServerForFile((server) =>
  createCrewWithWork(server, [
    { name: 'Pour footing A', status: 'pending_approval' },
    { name: 'Strip the formwork', status: 'ongoing' },
  ]),
);

/** Opens `path` as index.html does: its route-preload script runs before the app (route-preload.ts, as the build writes it). */
function openPage(path: string) {
  window.history.replaceState(null, '', path);
  new Function(preloadSource({}, {}, FIRST_CALLS, [...LANGUAGES]))();
}

/** What the script left for the app to take up (lib/first-call.ts). */
const firstCall = (path: string): FirstCall | undefined => window.__siteboardFirstCalls?.find((call) => call.path === path);

const calls = (path: string) => shared.server.requests.filter((request) => request === `GET ${path}`);

afterEach(() => {
  delete window.__siteboardFirstCalls;
  localStorage.removeItem('language');
  window.history.replaceState(null, '', '/');
});

describe("a dashboard's first call, started with the page", () => {
  it("is the one the team member's dashboard draws its counts from: it does not ask again", async () => {
    await shared.server.signIn(shared.member);
    shared.server.requests.length = 0;
    openPage('/team-member');
    expect(calls('/api/dashboard-summary/')).toHaveLength(1);

    renderScreen(<TaskDashboard board="team_member" leadingCard={() => null} />, { path: '/team-member' });
    expect(await screen.findByRole('button', { name: 'My Tasks 2' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Send for Approval 1 / })).toBeInTheDocument();
    expect(calls('/api/dashboard-summary/')).toHaveLength(1);
    expect(firstCall('/api/dashboard-summary/')).toBeUndefined();
    // The session's profile check, after the first paint, took up the profile started with the page too.
    await waitFor(() => expect(firstCall('/api/profile/')).toBeUndefined());
    expect(calls('/api/profile/')).toHaveLength(1);
  });

  it('is not started for a user who must choose a new password first (every such call is refused)', async () => {
    await shared.server.signIn(shared.member);
    storage.writeUser({ ...storage.readUser()!, must_change_password: true });
    shared.server.requests.length = 0;
    openPage('/team-member');

    expect(window.__siteboardFirstCalls).toBeUndefined();
    expect(shared.server.requests).toEqual([]);
  });

  it('is not taken up by another session: the screen asks itself', async () => {
    // Started for the manager; the team member signs in on this device before the dashboard asks.
    await shared.server.signIn(shared.manager);
    openPage('/manager');
    await shared.server.signIn(shared.member);
    shared.server.requests.length = 0;
    renderScreen(<TaskDashboard board="team_member" leadingCard={() => null} />, { path: '/team-member' });
    expect(await screen.findByRole('button', { name: 'My Tasks 2' })).toBeInTheDocument();
    expect(calls('/api/dashboard-summary/')).toHaveLength(1);
  });

  it('is not taken up in another language than the page shows: the screen asks itself', async () => {
    // Started in German (this device's choice) while the page still shows English, the language
    // the member chose (a chosen one wins over the device's at the session's start).
    await shared.server.database.db.update(users).set({ languageChosen: true }).where(eq(users.id, shared.member.id));
    await shared.server.signIn(shared.member);
    localStorage.setItem('language', 'de');
    openPage('/team-member');
    expect(firstCall('/api/dashboard-summary/')?.language).toBe('de');
    shared.server.requests.length = 0;
    renderScreen(<TaskDashboard board="team_member" leadingCard={() => null} />, { path: '/team-member' });
    expect(await screen.findByRole('button', { name: 'My Tasks 2' })).toBeInTheDocument();
    expect(calls('/api/dashboard-summary/')).toHaveLength(1);
    expect(firstCall('/api/dashboard-summary/')).toBeUndefined();
  });

  it('that failed leaves the admin dashboard to ask as it always does', async () => {
    await shared.server.signIn(shared.company.admin);
    shared.server.answer('GET', /^\/api\/admin-dashboard\/$/, { status: 503, json: { detail: 'Starting' } });
    openPage('/admin');
    expect((await firstCall('/api/admin-dashboard/')?.response)?.status).toBe(503);
    shared.server.clearAnswers();
    shared.server.requests.length = 0;

    renderScreen(<AdminDashboardPage />, { path: '/admin' });
    const users = await screen.findByRole('table', { name: 'All Users' });
    expect(within(users).getByText(shared.member.email)).toBeInTheDocument();
    expect(calls('/api/admin-dashboard/')).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('is not started for a page that is not a dashboard, nor without a stored session', async () => {
    await shared.server.signIn(shared.member);
    openPage('/team-member/my-tasks');
    expect(window.__siteboardFirstCalls).toBeUndefined();
    storage.clearSession();
    openPage('/team-member');
    expect(window.__siteboardFirstCalls).toBeUndefined();
  });
});
