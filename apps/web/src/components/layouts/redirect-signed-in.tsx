import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { HOME_PATH } from '@siteboard/shared';
import { useAuth } from '../../lib/auth';

/** The company step and sign-in are for people not signed in: a signed-in user goes to their dashboard instead. */
export function RedirectSignedIn({ children }: { children: ReactNode }) {
  const { status, user } = useAuth();
  if (status === 'authenticated' && user) return <Navigate to={HOME_PATH[user.role]} replace />;
  return children;
}
