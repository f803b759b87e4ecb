// jsdom has no IndexedDB (the offline queue keeps its writes there): an in-memory one stands in for the browser's.
import 'fake-indexeddb/auto';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiServerForFile } from '../test/api-server';
import { AppRoutes, preloadRoute } from './app-routes';
import { AppProvider } from './provider';
import { Root } from './root';

const shared = apiServerForFile(async (server) => server.createCrew());

afterEach(() => vi.restoreAllMocks());

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
