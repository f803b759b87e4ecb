import type { ComponentType } from 'react';
import { matchPath, Navigate, Route, Routes } from 'react-router';
import { preloadableLazy } from '../lib/preloadable-lazy';
import { Root } from './root';

interface LazyRoute {
  /** The pattern it serves; an area renders its own <Routes>, so its path ends in /* (React Router warns otherwise). */
  path: string;
  /** Loads the route's code; loading twice is one download. */
  load: () => Promise<ComponentType>;
  Component: ComponentType;
}

/** A route whose screen is its own chunk: the landing page never downloads the admin screens. */
function lazyRoute(path: string, importScreen: () => Promise<ComponentType>): LazyRoute {
  return { path, ...preloadableLazy(importScreen) };
}

const LAZY_ROUTES: LazyRoute[] = [
  lazyRoute('/', async () => (await import('./routes/landing')).LandingPage),
  lazyRoute('/company-selection', async () => (await import('./routes/company-selection')).CompanySelectionPage),
  lazyRoute('/login', async () => (await import('./routes/login')).LoginPage),
  lazyRoute('/signup', async () => (await import('./routes/signup')).SignupPage),
  // The pages e-mails link to (apps/server/src/features/auth/auth.mails.ts).
  lazyRoute('/accept-invitation', async () => (await import('./routes/accept-invitation')).AcceptInvitationPage),
  lazyRoute('/reset-password', async () => (await import('./routes/reset-password')).ResetPasswordPage),
  lazyRoute('/admin/*', async () => (await import('./routes/admin/area')).AdminArea),
  lazyRoute('/manager/*', async () => (await import('./routes/manager/area')).ManagerArea),
  lazyRoute('/team-performance/*', async () => (await import('./routes/manager/area')).TeamPerformanceArea),
  lazyRoute('/team-member/*', async () => (await import('./routes/team-member/area')).TeamMemberArea),
];

/** Loads the code of the route that serves `pathname` (none for a path that only redirects). */
export async function preloadRoute(pathname: string): Promise<void> {
  await LAZY_ROUTES.find((route) => matchPath(route.path, pathname))?.load();
}

/**
 * The app's routes, declared as components: the data router (createBrowserRouter) would add 18 KB
 * gzipped to every first load for loaders and actions the app does not use (decision record 036).
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Root />}>
        {LAZY_ROUTES.map(({ path, Component }) => (
          <Route key={path} path={path} element={<Component />} />
        ))}
        <Route path="*" element={<Navigate to="/company-selection" replace />} />
      </Route>
    </Routes>
  );
}
