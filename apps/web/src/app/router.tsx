import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { LoadingScreen } from '../components/ui/loading-screen';
import { Root } from './root';

// Each area is its own chunk: the landing page never downloads the admin screens.
export const router = createBrowserRouter([
  {
    element: <Root />,
    hydrateFallbackElement: <LoadingScreen />,
    children: [
      { path: '/', lazy: async () => ({ Component: (await import('./routes/landing')).LandingPage }) },
      { path: '/company-selection', lazy: async () => ({ Component: (await import('./routes/company-selection')).CompanySelectionPage }) },
      { path: '/login', lazy: async () => ({ Component: (await import('./routes/login')).LoginPage }) },
      { path: '/signup', lazy: async () => ({ Component: (await import('./routes/signup')).SignupPage }) },
      { path: '/admin/*', lazy: async () => ({ Component: (await import('./routes/admin/area')).AdminArea }) },
      { path: '/manager/*', lazy: async () => ({ Component: (await import('./routes/manager/area')).ManagerArea }) },
      { path: '/team-performance', lazy: async () => ({ Component: (await import('./routes/manager/area')).TeamPerformanceArea }) },
      { path: '/team-member/*', lazy: async () => ({ Component: (await import('./routes/team-member/area')).TeamMemberArea }) },
      { path: '*', element: <Navigate to="/company-selection" replace /> },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
