import { lazy, Suspense, type ReactNode } from 'react';
import { LoadingScreen } from '../components/ui/loading-screen';
import { useAuth } from '../lib/auth';

// The form (and its validation library) loads only for the few who must change their password first.
const MustChangePassword = lazy(() => import('./must-change-password'));

/**
 * An admin set this user's password: before anything else of their area, they choose their own
 * (the profile says `must_change_password` until they do).
 */
export function PasswordGate({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  if (!user?.must_change_password) return children;
  return (
    <Suspense fallback={<LoadingScreen />}>
      <MustChangePassword />
    </Suspense>
  );
}
