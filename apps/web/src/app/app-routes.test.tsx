// jsdom has no IndexedDB (the offline queue keeps its writes there): an in-memory one stands in for the browser's.
import 'fake-indexeddb/auto';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiServerForFile } from '../test/api-server';
import { appRoutes } from './app-routes';
import { AppProvider } from './provider';

const shared = apiServerForFile(async (server) => server.createCrew());

afterEach(() => vi.restoreAllMocks());

describe("the app's routes", () => {
  it('open /team-performance for a manager with its sidebar entry marked and no router warning', async () => {
    await shared.server.signIn(shared.manager);
    const warnings = vi.spyOn(console, 'warn');
    const router = createMemoryRouter(appRoutes, { initialEntries: ['/team-performance'] });
    render(
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>,
    );

    expect(await screen.findByRole('heading', { level: 1, name: 'Team Member Performance' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Team Member Performance' })).toHaveAttribute('aria-current', 'page');
    expect(router.state.location.pathname).toBe('/team-performance');
    expect(warnings.mock.calls.map((call) => String(call[0])).filter((message) => /route|<Routes>/i.test(message))).toEqual([]);
  });
});
