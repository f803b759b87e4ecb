import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, Outlet, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { AuthProvider } from '../lib/auth';
import { useKeepFocusInPlace } from '../lib/focus';
import '../lib/i18n';

/**
 * Renders a screen as the app does: a fresh query cache (writes always run, as in app/provider.tsx), the session provider and focus
 * kept in place (as in app/root.tsx), a router at
 * `path` (other paths render their path, so a test can see where a screen navigated to, unless
 * `routes` gives them a screen: a flow across two screens); `children` are the pages a layout's outlet shows.
 */
export function renderScreen(
  screen: ReactNode,
  { path = '/', route = path, routes = [], children }: { path?: string; route?: string; routes?: RouteObject[]; children?: RouteObject[] } = {},
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { networkMode: 'always' } } });
  const router = createMemoryRouter(
    [
      {
        element: <TestRoot />,
        children: [
          { path: route, element: screen, children },
          ...routes,
          { path: '*', element: <NavigatedTo /> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...result, router, queryClient };
}

/** What app/root.tsx gives every screen: the session, and focus kept in place. */
function TestRoot() {
  useKeepFocusInPlace();
  return (
    <AuthProvider>
      <Outlet />
    </AuthProvider>
  );
}

function NavigatedTo() {
  const location = useLocation();
  return <p data-testid="navigated-to">{location.pathname + location.search}</p>;
}
