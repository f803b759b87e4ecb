// jsdom has no IndexedDB (the offline queue keeps its writes there): an in-memory one stands in for the browser's.
import 'fake-indexeddb/auto';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { shiftDate } from '@siteboard/shared';
import type { TestUser } from '../../../server/src/test/factories';
import { insertWork } from '../../../server/src/test/work-factories';
import { FIRST_CALLS, preloadSource } from '../../route-preload';
import { clearPersistedCache } from '../features/offline/persist-cache';
import { LANGUAGES } from '../lib/i18n';
import { storage } from '../lib/storage';
import { apiServerForFile } from '../test/api-server';
import { fakeMatchMedia, restoreMatchMedia } from '../test/media';
import { AppRoutes, preloadRoute } from './app-routes';
import { AppProvider } from './provider';
import { Root } from './root';

const shared = apiServerForFile(async (server) => {
  const crew = await server.createCrew();
  // Work for the crew member in a project the manager runs: both daily log screens open on its day.
  await insertWork(server.database.db, crew);
  return crew;
});

afterEach(() => {
  vi.restoreAllMocks();
  restoreMatchMedia();
  delete window.__siteboardFirstCalls;
});

describe("the app's routes", () => {
  it('open /team-performance for a manager with its sidebar entry marked and no router warning', async () => {
    await shared.server.signIn(shared.manager);
    const warnings = vi.spyOn(console, 'warn');
    let pathname = '';
    function CurrentPath() {
      pathname = useLocation().pathname;
      return null;
    }
    render(
      <AppProvider>
        <MemoryRouter initialEntries={['/team-performance']}>
          <AppRoutes />
          <CurrentPath />
        </MemoryRouter>
      </AppProvider>,
    );

    expect(await screen.findByRole('heading', { level: 1, name: 'Team Member Performance' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Team Member Performance' })).toHaveAttribute('aria-current', 'page');
    expect(pathname).toBe('/team-performance');
    expect(warnings.mock.calls.map((call) => String(call[0])).filter((message) => /route|<Routes>/i.test(message))).toEqual([]);
  });

  it("draws a preloaded area's first screen in the first render, without a loading screen", async () => {
    await shared.server.signIn(shared.manager);
    await preloadRoute('/manager');
    render(
      <AppProvider>
        <MemoryRouter initialEntries={['/manager']}>
          <AppRoutes />
        </MemoryRouter>
      </AppProvider>,
    );

    // No waiting: the dashboard's heading is there as soon as React has rendered once.
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/Dashboard/);
  });

  it('shows a message and a reload button instead of a blank page when a screen fails', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    function Broken(): never {
      throw new Error('chunk failed to load');
    }
    render(
      <AppProvider>
        <MemoryRouter initialEntries={['/broken']}>
          <Routes>
            <Route element={<Root />}>
              <Route path="/broken" element={<Broken />} />
            </Route>
          </Routes>
        </MemoryRouter>
      </AppProvider>,
    );

    expect(await screen.findByRole('alert')).toHaveTextContent('This page could not be shown. Check your connection, then reload.');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    expect(errors).toHaveBeenCalled();
  });
});

/** The browser's window `width` px wide: the media queries of that width match. */
function viewport(width: number) {
  fakeMatchMedia((query) => {
    const min = /min-width:\s*(\d+)px/.exec(query);
    const max = /max-width:\s*(\d+)px/.exec(query);
    return Boolean(min || max) && (!min || width >= Number(min[1])) && (!max || width <= Number(max[1]));
  });
}

/**
 * Every call a signed-in person's area makes as the page opens at `path` on a device that kept none
 * of their answers: index.html's first calls (route-preload.ts), the shell's, the first screen's and
 * the idle prefetch of the area's other screens (area-data.ts), once the header is drawn, every call
 * `expected` names has been made and nothing is loading.
 */
async function firstLoad(role: 'admin' | 'manager' | 'member', path: string, width: number, expected: string[]) {
  const user = role === 'admin' ? shared.company.admin : shared[role];
  await shared.server.signIn(user);
  const profile = await shared.server.app.inject({ method: 'GET', url: '/api/profile/', headers: { authorization: `Bearer ${storage.token ?? ''}` } });
  storage.writeUser(profile.json());
  await clearPersistedCache(user.id);
  viewport(width);
  // The area's code first (index.html's modulepreload does so beside the first calls): on a busy machine, jsdom takes seconds to import it.
  await preloadRoute(path);
  shared.server.requestUrls.length = 0;
  window.history.replaceState(null, '', path);
  new Function(preloadSource({}, {}, FIRST_CALLS, [...LANGUAGES]))();
  let queryClient: QueryClient | undefined;
  function Cache() {
    queryClient = useQueryClient();
    return null;
  }
  const { unmount } = render(
    <AppProvider>
      <Cache />
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </AppProvider>,
  );
  await waitFor(
    () => {
      // The header's menus, drawn after the first paint, are there: what they ask for has been asked.
      expect(screen.getByRole('button', { name: 'Account menu' })).toBeInTheDocument();
      expect(shared.server.requestUrls).toEqual(expect.arrayContaining(expected));
      expect(queryClient!.isFetching()).toBe(0);
    },
    { timeout: 20_000 },
  );
  unmount();
  window.history.replaceState(null, '', '/');
  return shared.server.requestUrls.filter((request) => request.startsWith('GET ')).sort();
}

const PEOPLE = 'GET /api/users/?role=manager%2Cteam_member&team_first=true&limit=20&offset=0';

/**
 * What both work areas ask as they open: the first calls, the bell's, and, asked ahead once the
 * page is idle, the account menu's mail setting, the first open projects, which the project
 * browser's first page (10) and the create-task pickers (20) both show, the person's tasks, the
 * people a task goes to, the projects of the daily log and the drawings, and the day the daily log
 * opens on (its project's log of today and its last two weeks).
 */
const workAreaCalls = async (user: TestUser) => {
  await shared.server.signIn(user);
  const projects = await shared.server.app.inject({ method: 'GET', url: '/api/daily-logs/projects/?limit=100', headers: { authorization: `Bearer ${storage.token ?? ''}` } });
  const [{ id, today }] = projects.json<{ id: number; today: string }[]>();
  return [
    'GET /api/dashboard-summary/',
    'GET /api/profile/',
    `GET /api/notifications/?email=${encodeURIComponent(user.email)}`,
    'GET /api/email/',
    'GET /api/projects/?status=planned%2Congoing&order=newest&limit=20&offset=0',
    'GET /api/subtasks/?assigned_to=me&limit=20&offset=0',
    PEOPLE,
    'GET /api/daily-logs/projects/?limit=100',
    `GET /api/projects/${id}/daily-logs/${today}/`,
    `GET /api/projects/${id}/daily-logs/?from=${shiftDate(today, -13)}&to=${today}`,
  ];
};

describe("an area's first load asks for each answer once, on a phone and a computer", () => {
  it.each([390, 1280])('the manager at %i px', async (width) => {
    const expected = [...(await workAreaCalls(shared.manager)), 'GET /api/pending-approvals/?limit=20&offset=0', 'GET /api/team-workload/', 'GET /projects/api/manager-appraisal-report/'];
    expect(await firstLoad('manager', '/manager', width, expected)).toEqual(expected.sort());
  });

  it.each([390, 1280])('the team member at %i px', async (width) => {
    // A phone lists the open work under the cards.
    const openWork = width < 640 ? ['GET /api/subtasks/?assigned_to=me&status=ongoing&project_status=ongoing%2Cplanned&limit=20&offset=0'] : [];
    const expected = [...(await workAreaCalls(shared.member)), ...openWork];
    expect(await firstLoad('member', '/team-member', width, expected)).toEqual(expected.sort());
  });

  it.each([390, 1280])('the admin at %i px', async (width) => {
    const expected = ['GET /api/admin-dashboard/', 'GET /api/profile/', 'GET /api/email/', PEOPLE];
    expect(await firstLoad('admin', '/admin', width, expected)).toEqual(expected.sort());
  });
});
