import { Navigate, type RouteObject } from 'react-router';
import { LoadingScreen } from '../components/ui/loading-screen';
import { Root } from './root';

// Each area is its own chunk: the landing page never downloads the admin screens. An area renders
// its own <Routes>, so its path ends in /* (React Router warns of a descendant <Routes> otherwise).
export const appRoutes: RouteObject[] = [
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
      { path: '/team-performance/*', lazy: async () => ({ Component: (await import('./routes/manager/area')).TeamPerformanceArea }) },
      { path: '/team-member/*', lazy: async () => ({ Component: (await import('./routes/team-member/area')).TeamMemberArea }) },
      { path: '*', element: <Navigate to="/company-selection" replace /> },
    ],
  },
];
