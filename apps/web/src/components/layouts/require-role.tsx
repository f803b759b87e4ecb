import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import type { Role } from '@siteboard/shared';
import { useAuth } from '../../lib/auth';
import { FALLBACK_COMPANY_ID, loginPath, storage } from '../../lib/storage';
import { LoadingScreen } from '../ui/loading-screen';
import { GUARD_REDIRECT } from './redirect-signed-in';

/** Spec §2: the wrong role, or no session, goes to the company picker of the stored company; a session that just ended, to its login. */
export function RequireRole({ role, children }: { role: Role; children: ReactNode }) {
  const { status, user, sessionEnd } = useAuth();
  if (status === 'loading') return <LoadingScreen />;
  // The same state as the sign-out's own navigation: whichever lands last, the sign-in page says why.
  if (status === 'signedOut') return <Navigate to={loginPath()} replace state={sessionEnd} />;
  if (!user || user.role !== role) {
    // Marked as the guard's redirect: the company picker then stays (spec §2) instead of sending a signed-in user home.
    return <Navigate to={`/company-selection?companyId=${storage.companyId ?? FALLBACK_COMPANY_ID}`} replace state={GUARD_REDIRECT} />;
  }
  return children;
}
