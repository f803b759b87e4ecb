import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { HOME_PATH } from '@siteboard/shared';
import { useAuth } from '../../lib/auth';

/** The state of a route guard's redirect to the company picker (spec §2: the wrong role lands there and stays). */
export const GUARD_REDIRECT = { fromGuard: true } as const;

/**
 * The company step and sign-in are for people not signed in: a signed-in user who opens them goes
 * to their dashboard instead, unless a route guard just sent them there.
 */
export function RedirectSignedIn({ children }: { children: ReactNode }) {
  const { status, user } = useAuth();
  const fromGuard = (useLocation().state as typeof GUARD_REDIRECT | null)?.fromGuard === true;
  if (status === 'authenticated' && user && !fromGuard) return <Navigate to={HOME_PATH[user.role]} replace />;
  return children;
}
