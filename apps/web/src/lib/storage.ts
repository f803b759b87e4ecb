import { HOME_PATH, type Role, type User } from '@siteboard/shared';

/** The spec's client-side storage keys, in one place. */
export const STORAGE_KEYS = {
  companyId: 'company_id',
  token: 'token',
  refreshToken: 'refreshToken',
  user: 'user',
  notificationsLastOpenAt: 'notif_last_open_at',
  /** The language chosen on this device; kept when the session ends. */
  language: 'language',
  /** Set when the language was chosen signed out: the next sign-in gives it to the profile. */
  languageUnsynced: 'language_unsynced',
  /** The name of the company last signed in to or chosen here, with its id (`{"id":…,"name":…}`): the sign-in page names it. */
  companyName: 'company_name',
  /** "1" while the wide-screen sidebar is folded to icons; kept across reloads and sign-ins on this device. */
  sidebarCollapsed: 'sidebar_collapsed',
  /**
   * Per person who signed in here, the device zone they chose to keep the company's clock in
   * (`{"<user id>":"Europe/Berlin"}`): the notice that times are on the company's clock is not shown
   * to them again on this device while it stays in that zone (decision record 125).
   */
  zoneKept: 'zone_kept',
} as const;

export const FALLBACK_COMPANY_ID = '1';

export const storage = {
  get token() {
    return localStorage.getItem(STORAGE_KEYS.token);
  },
  get refreshToken() {
    return localStorage.getItem(STORAGE_KEYS.refreshToken);
  },
  get companyId() {
    return localStorage.getItem(STORAGE_KEYS.companyId);
  },
  setCompanyId(id: number | string) {
    localStorage.setItem(STORAGE_KEYS.companyId, String(id));
  },
  /**
   * Keeps a company's name on this device, for the sign-in page to name it after a sign-out or a
   * reload (the server tells no one a company's name from its id).
   */
  rememberCompany(id: number | string, name: string) {
    localStorage.setItem(STORAGE_KEYS.companyName, JSON.stringify({ id: String(id), name }));
  },
  /** The company this device signs in to from now on, and its name. */
  setCompany(id: number | string, name: string) {
    this.setCompanyId(id);
    this.rememberCompany(id, name);
  },
  /** The name kept for company `id`, if this device knows it. */
  companyNameOf(id: string): string | undefined {
    try {
      const kept = JSON.parse(localStorage.getItem(STORAGE_KEYS.companyName) ?? 'null') as { id?: unknown; name?: unknown } | null;
      return kept?.id === id && typeof kept.name === 'string' ? kept.name : undefined;
    } catch {
      return undefined;
    }
  },
  get sidebarCollapsed() {
    return localStorage.getItem(STORAGE_KEYS.sidebarCollapsed) === '1';
  },
  setSidebarCollapsed(collapsed: boolean) {
    if (collapsed) localStorage.setItem(STORAGE_KEYS.sidebarCollapsed, '1');
    else localStorage.removeItem(STORAGE_KEYS.sidebarCollapsed);
  },
  /** The device zone in which `userId` chose to keep the company's clock here, if they did. */
  zoneKeptBy(userId: number): string | undefined {
    return this.zonesKept()[String(userId)];
  },
  /** Remembers that `userId` keeps the company's clock while this device is in `deviceZone`. */
  keepZone(userId: number, deviceZone: string) {
    localStorage.setItem(STORAGE_KEYS.zoneKept, JSON.stringify({ ...this.zonesKept(), [String(userId)]: deviceZone }));
  },
  zonesKept(): Record<string, string> {
    try {
      const kept = JSON.parse(localStorage.getItem(STORAGE_KEYS.zoneKept) ?? '{}') as unknown;
      return kept && typeof kept === 'object' && !Array.isArray(kept) ? (kept as Record<string, string>) : {};
    } catch {
      return {};
    }
  },
  setTokens(access: string, refresh: string) {
    localStorage.setItem(STORAGE_KEYS.token, access);
    localStorage.setItem(STORAGE_KEYS.refreshToken, refresh);
  },
  /** The stored profile, or null; an unreadable one is removed. */
  readUser(): User | null {
    const raw = localStorage.getItem(STORAGE_KEYS.user);
    if (!raw) return null;
    try {
      const user = JSON.parse(raw) as User;
      if (user && typeof user.id === 'number') return user;
    } catch {
      // fall through: invalid JSON is cleared like an invalid user
    }
    localStorage.removeItem(STORAGE_KEYS.user);
    return null;
  },
  writeUser(user: User) {
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
  },
  clearSession() {
    localStorage.removeItem(STORAGE_KEYS.token);
    localStorage.removeItem(STORAGE_KEYS.refreshToken);
    localStorage.removeItem(STORAGE_KEYS.user);
  },
};

/**
 * What the company step (or sign-up) tells the sign-in page on the way there: the company's name,
 * which the sign-in page cannot look up (the company list is not public).
 */
export interface LoginState {
  companyName?: string;
  /** Sign-up's new admin, or a session that ended: the e-mail (and role) filled in, so only the password is left. */
  email?: string;
  role?: Role;
  /** Why the session ended without the person signing out here. */
  ended?: SessionEndReason;
  /** The page that was open when the session ended: signing in again returns there. */
  returnTo?: string;
}

/**
 * `expired`: the server refused the session (its refresh was refused: the password was changed
 * elsewhere, an admin set a new one, or the login ended); `elsewhere`: another tab signed out.
 */
export type SessionEndReason = 'expired' | 'elsewhere';

/** The page to open after signing in: `returnTo` when it is a page of `role`'s own area, else its home. */
export function afterSignInPath(role: Role, returnTo: string | undefined): string {
  const home = HOME_PATH[role];
  if (!returnTo || !returnTo.startsWith('/') || returnTo.startsWith('//')) return home;
  const areas = role === 'manager' ? [home, '/team-performance'] : [home];
  const pathname = returnTo.split(/[?#]/)[0]!;
  return areas.some((area) => pathname === area || pathname.startsWith(`${area}/`)) ? returnTo : home;
}

/** `/login?companyId=…` for the stored company, else the spec's fallback "1". */
export function loginPath(companyId: number | string | null = storage.companyId): string {
  return `/login?companyId=${companyId ?? FALLBACK_COMPANY_ID}`;
}
