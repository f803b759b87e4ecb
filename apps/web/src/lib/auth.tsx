import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ROLES, type LoginAnswer, type Role, type User } from '@siteboard/shared';
import { afterPaint } from './after-paint';
import { setDisplayZone } from './format';
import { api, ApiError, setSessionExpiredHandler } from './api-client';
import { settleLanguageWithProfile } from './language';
import { loginPath, storage, STORAGE_KEYS, type LoginState, type SessionEndReason } from './storage';

/** `signedOut`: the session just ended here (logout, expiry), so guards send the person to their company's login. */
export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated' | 'signedOut';

interface AuthContextValue {
  status: AuthStatus;
  user: User | null;
  /** Token, then profile; stores both or nothing. Resolves to the signed-in user. */
  login(input: { email: string; password: string; role: Role; companyId: string }): Promise<User>;
  logout(): Promise<void>;
  /** Reads the profile again (after the user changed something about themselves, e.g. their password). */
  refreshProfile(): Promise<void>;
  /**
   * After a sign-in with a password the user must change: the server's proof of that password,
   * which the forced change sends instead of asking for it again. Kept in memory only.
   */
  passwordProof: string | null;
  /** How the last session ended by itself (who, why, which page), for every way to the sign-in page to carry. */
  sessionEnd: LoginState | null;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export class InvalidRoleError extends Error {}

let beforeSignOut: (() => Promise<boolean>) | null = null;
/**
 * What must happen on this device before a sign-out (the offline queue warns about unsent
 * changes and forgets them with the cached answers); answering false keeps the session.
 */
export function setBeforeSignOut(handler: (() => Promise<boolean>) | null) {
  beforeSignOut = handler;
}

export function isKnownRole(role: unknown): role is Role {
  return (ROLES as readonly unknown[]).includes(role);
}

/** The zone a user's times are shown in, as the profile answers it (a user stored before it has none). */
function zoneOf(user: User | null): string | null {
  const zone = (user as { effective_timezone?: unknown } | null)?.effective_timezone;
  return typeof zone === 'string' ? zone : null;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // A stored user draws their area in the very first render; only a token without one waits for the profile.
  const [user, setUserState] = useState<User | null>(() => {
    const stored = storage.readUser();
    setDisplayZone(zoneOf(stored));
    return stored;
  });
  const userRef = useRef(user);
  // Whoever is signed in, the screens show times on their clock from the first render on.
  const setUser = useCallback((next: User | null) => {
    // An admin changed this person's role while they were signed in: what the screens hold was
    // answered to the old one, possibly wider (a manager's view of colleagues' phones), and is not
    // shown, nor kept on the device, as seen by the new one (decision record 119's addendum). Every
    // answer goes (a read on its way is called off), the shown screens load theirs again; the
    // device's kept copy follows the cache. Queued writes are the offline queue's: they stay.
    const previous = userRef.current;
    if (previous && next && previous.id === next.id && previous.role !== next.role) void queryClient.resetQueries();
    userRef.current = next;
    setDisplayZone(zoneOf(next));
    setUserState(next);
  }, [queryClient]);
  const [passwordProof, setPasswordProof] = useState<string | null>(null);
  const [sessionEnd, setSessionEnd] = useState<LoginState | null>(null);
  const [status, setStatus] = useState<AuthStatus>(() => (storage.readUser() ? 'authenticated' : storage.token ? 'loading' : 'unauthenticated'));
  // Counts ended sessions: a profile asked for before a logout must not write its user back after it
  // (a stored user without a token draws an area that cannot load anything).
  const ended = useRef(0);
  const endedByItself = useRef(false);
  const location = useLocation();
  const openPage = useRef('');
  useEffect(() => {
    userRef.current = user;
    openPage.current = location.pathname + location.search;
  }, [user, location]);

  const endSession = useCallback((next: 'unauthenticated' | 'signedOut' = 'unauthenticated') => {
    ended.current += 1;
    storage.clearSession();
    queryClient.clear();
    setUser(null);
    setPasswordProof(null);
    setStatus(next);
  }, [queryClient, setUser]);

  /**
   * Ends the session and goes to the company's login; the area's guard, seeing `signedOut`, goes to
   * the same place. A session that ended by itself (`reason`) says why there, keeps who it was
   * filled in, and remembers the page that was open, to return to after signing in again.
   */
  const signOutTo = useCallback((companyId: string | null, reason?: SessionEndReason) => {
    // Calls still on their way when the session ended come back refused too: the first ending is the one to tell.
    if (reason && endedByItself.current) return;
    endedByItself.current = reason !== undefined;
    // Another tab's sign-out already removed the stored user: this tab still knows who it was.
    const previous = userRef.current ?? storage.readUser();
    const state: LoginState | undefined =
      reason && previous
        ? { ended: reason, email: previous.email, role: previous.role, companyName: previous.company.name, returnTo: openPage.current }
        : undefined;
    setSessionEnd(state ?? null);
    endSession('signedOut');
    navigate(loginPath(companyId), { replace: true, state });
  }, [endSession, navigate]);

  // Session start (spec §4): a token means "fetch the profile"; without one a stored user stands in.
  // With both, the stored user stands in while the profile loads, so the area draws at once
  // instead of after a round trip; a refused token still ends the session when the answer comes.
  useEffect(() => {
    let cancelled = false;
    async function start() {
      // The first render already stands on the stored user (or on none).
      if (!storage.token) return;
      const stored = storage.readUser();
      if (stored) {
        // The stored user's area is painted first; the profile only confirms it.
        await afterPaint();
        if (cancelled) return;
      }
      const session = ended.current;
      try {
        const profile = await api<User>('/api/profile/');
        if (cancelled || session !== ended.current) return;
        storage.writeUser(profile);
        if (!storage.companyId) storage.setCompanyId(profile.company_id);
        storage.rememberCompany(profile.company_id, profile.company.name);
        void settleLanguageWithProfile(profile, { signedIn: false }).catch(() => {});
        setUser(profile);
        setStatus('authenticated');
      } catch (error) {
        if (cancelled || session !== ended.current) return;
        if (error instanceof ApiError && error.status === 401) signOutTo(storage.companyId, 'expired');
        // No answer at all (no signal): the stored user stands in, and the area shows what this device kept.
        else if (!(error instanceof ApiError) && stored) return;
        else endSession();
      }
    }
    void start();
    return () => {
      cancelled = true;
    };
  }, [endSession, signOutTo, setUser]);

  useEffect(() => {
    setSessionExpiredHandler(() => signOutTo(storage.companyId, 'expired'));
  }, [signOutTo]);

  // Another tab signed out (or its session ended): the tokens this tab used are gone, so this tab's
  // session ended too, and it says so now rather than at its next call.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.storageArea !== localStorage || (event.key !== null && event.key !== STORAGE_KEYS.token)) return;
      if (!storage.token && userRef.current) signOutTo(storage.companyId, 'elsewhere');
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [signOutTo]);

  const login = useCallback<AuthContextValue['login']>(async ({ email, password, role, companyId }) => {
    try {
      const pair = await api<LoginAnswer>('/api/token/', {
        method: 'POST',
        auth: false,
        body: { email, password, role, company_id: Number(companyId) },
      });
      storage.setTokens(pair.access, pair.refresh);
      const profile = await api<User>('/api/profile/', { auth: true });
      if (!isKnownRole(profile.role)) throw new InvalidRoleError();
      storage.writeUser(profile);
      storage.setCompany(profile.company_id, profile.company.name);
      // The area draws in the language it settles on; a language that fails to load leaves the current one.
      await settleLanguageWithProfile(profile, { signedIn: true }).catch(() => {});
      endedByItself.current = false;
      setUser(profile);
      setPasswordProof(pair.password_proof ?? null);
      setStatus('authenticated');
      return profile;
    } catch (error) {
      endSession();
      throw error;
    }
  }, [endSession, setUser]);

  const refreshProfile = useCallback(async () => {
    const session = ended.current;
    const wasGated = userRef.current?.must_change_password === true;
    const profile = await api<User>('/api/profile/');
    if (session !== ended.current) return;
    storage.writeUser(profile);
    // The password an admin set was just replaced: what the sign-in would have given the profile
    // (the language this device showed) goes to it now that the server takes it.
    if (wasGated && !profile.must_change_password) await settleLanguageWithProfile(profile, { signedIn: true }).catch(() => {});
    setUser(profile);
  }, [setUser]);

  const logout = useCallback(async () => {
    if (beforeSignOut && !(await beforeSignOut())) return;
    const refresh = storage.refreshToken;
    // Ending the login on the server is best effort: the local session ends either way.
    if (refresh) void api('/api/token/revoke/', { method: 'POST', auth: false, body: { refresh } }).catch(() => {});
    signOutTo(storage.companyId);
  }, [signOutTo]);

  const value = useMemo(
    () => ({ status, user, login, logout, refreshProfile, passwordProof, sessionEnd }),
    [status, user, login, logout, refreshProfile, passwordProof, sessionEnd],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside AuthProvider');
  return value;
}
