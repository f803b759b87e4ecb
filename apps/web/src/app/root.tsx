import { Outlet } from 'react-router';
import { AuthProvider } from '../lib/auth';

/** Everything below the router needs the session, and the session needs the router to redirect. */
export function Root() {
  return (
    <AuthProvider>
      <Outlet />
    </AuthProvider>
  );
}
