import { lazy, Suspense, useState, type ReactNode } from 'react';
import { LoadingScreen } from '../components/ui/loading-screen';
import { PasswordChangedToast } from '../features/auth/components/lazy-change-password-form';
import { useAuth } from '../lib/auth';

// The form (and its validation library) loads only for the few who must change their password first.
const MustChangePassword = lazy(() => import('./must-change-password'));

/**
 * An admin set this user's password: before anything else of their area, they choose their own
 * (the profile says `must_change_password` until they do).
 */
export function PasswordGate({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const [changed, setChanged] = useState(false);
  if (!user?.must_change_password) {
    return (
      <>
        {children}
        {changed && <PasswordChangedToast onDismiss={() => setChanged(false)} />}
      </>
    );
  }
  return (
    <Suspense fallback={<LoadingScreen />}>
      <MustChangePassword onDone={() => setChanged(true)} />
    </Suspense>
  );
}
