import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { useAuth } from '../../lib/auth';
import { Button } from '../ui/button';
import { Icon, type IconName } from '../ui/icons';
import { Shell, type ShellNavItem } from './shell';

type Area = 'manager' | 'team-member';

const AVATAR: Record<Area, string> = { manager: 'M', 'team-member': 'TM' };

/** `alias`: another path of the same screen (the spec names two for team performance), marked as this entry. */
const NAV: Record<Area, { to: string; label: string; icon: IconName; end?: boolean; alias?: string }[]> = {
  manager: [
    { to: '/manager', label: 'manager.nav.dashboard', icon: 'dashboard', end: true },
    { to: '/manager/projects', label: 'manager.nav.projects', icon: 'projects' },
    { to: '/manager/create-task', label: 'manager.nav.createTask', icon: 'createTask' },
    { to: '/manager/my-tasks', label: 'manager.nav.myTasks', icon: 'tasks' },
    { to: '/manager/team-assignments', label: 'manager.nav.performance', icon: 'performance', alias: '/team-performance' },
    { to: '/manager/daily-log', label: 'dailyLog.nav', icon: 'dailyLog' },
    { to: '/manager/drawings', label: 'drawings.nav', icon: 'drawings' },
  ],
  'team-member': [
    { to: '/team-member', label: 'manager.nav.dashboard', icon: 'dashboard', end: true },
    { to: '/team-member/projects', label: 'manager.nav.projects', icon: 'projects' },
    { to: '/team-member/create-task', label: 'manager.nav.createTask', icon: 'createTask' },
    { to: '/team-member/my-tasks', label: 'manager.nav.myTasks', icon: 'tasks' },
    { to: '/team-member/daily-log', label: 'dailyLog.nav', icon: 'dailyLog' },
    { to: '/team-member/drawings', label: 'drawings.nav', icon: 'drawings' },
  ],
};

/**
 * The manager's and the team member's shell: same frame, different menu and avatar. `calendarFeed`
 * and `notifications` are the header's tools; `offline` (the offline banner and sync state) tops the
 * page; `account` renders the avatar as the user's menu; `notices` stand above the page (the zone notice).
 */
export function WorkLayout({
  area,
  notifications,
  calendarFeed,
  offline,
  account,
  notices,
}: {
  area: Area;
  notifications?: ReactNode;
  calendarFeed?: ReactNode;
  offline?: ReactNode;
  account?: (avatar: string) => ReactNode;
  notices?: ReactNode;
}) {
  const { t } = useTranslation();
  const { user, logout } = useAuth();
  const { pathname } = useLocation();

  const nav = NAV[area].map<ShellNavItem>((item) => ({
    key: item.to,
    label: t(item.label),
    icon: <Icon name={item.icon} />,
    render: ({ className, children, onNavigate }) =>
      item.alias && pathname.startsWith(item.alias) ? (
        <Link to={item.to} aria-current="page" className={className} onClick={onNavigate}>
          {children}
        </Link>
      ) : (
        <NavLink to={item.to} end={item.end} className={className} onClick={onNavigate}>
          {children}
        </NavLink>
      ),
  }));

  return (
    <Shell
      nav={nav}
      onLogout={() => void logout()}
      headerStart={user?.company?.name ?? t('shell.companyFallback')}
      notices={notices}
      headerEnd={
        <>
          {calendarFeed}
          {notifications}
          {/*
            The signed-in person by name, the e-mail (the spec's header text) under it; the e-mail alone
            without a name. Not beside a tablet's sidebar (768–879 px), where the bar has room for the
            company's name and the tools only: the account menu (the avatar) names them there.
          */}
          <span className="hidden min-w-0 max-w-48 flex-col text-right text-sm sm:flex md:max-[879px]:hidden" title={user?.email}>
            {user?.full_name ? (
              <span className="truncate font-medium text-ink" data-testid="header-name">
                {user.full_name}
              </span>
            ) : null}
            <span className={user?.full_name ? 'truncate text-xs text-slate-500' : 'truncate text-slate-600'} data-testid="header-email">
              {user?.email}
            </span>
          </span>
          {/* The avatar is the account menu (change password): it stays at phone width. */}
          {account ? (
            account(AVATAR[area])
          ) : (
            <span className="hidden h-9 w-9 shrink-0 items-center justify-center rounded-full bg-brand-600 text-xs font-bold text-white sm:flex" aria-hidden>
              {AVATAR[area]}
            </span>
          )}
          {/* At phone width, and beside a tablet's sidebar, the sidebar's Logout stands in and the header keeps room for the company's name. */}
          <Button variant="secondary" className="whitespace-nowrap max-sm:hidden md:max-[879px]:hidden" onClick={() => void logout()}>
            {t('shell.logout')}
          </Button>
        </>
      }
    >
      {offline}
      <Outlet />
    </Shell>
  );
}
