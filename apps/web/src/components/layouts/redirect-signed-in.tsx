import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAuth } from '../../lib/auth';
import { afterSignInPath, type LoginState } from '../../lib/storage';

/** The state of a route guard's redirect to the company picker (spec §2: the wrong role lands there and stays). */
export const GUARD_REDIRECT = { fromGuard: true } as const;

/**
 * The company step and sign-in are for people not signed in: a signed-in user who opens them goes
 * to their dashboard (or the page a session that ended had open) instead, unless a route guard just
 * sent them there.
 */
export function RedirectSignedIn({ children }: { children: ReactNode }) {
  const { status, user } = useAuth();
  const state = useLocation().state as (typeof GUARD_REDIRECT & LoginState) | null;
  if (status === 'authenticated' && user && state?.fromGuard !== true) return <Navigate to={afterSignInPath(user.role, state?.returnTo)} replace />;
  return children;
}
