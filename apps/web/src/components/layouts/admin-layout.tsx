import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { useAuth } from '../../lib/auth';
import { Button } from '../ui/button';
import { Icon, type IconName } from '../ui/icons';
import { Shell, type ShellNavItem } from './shell';

/** Sidebar entries after the first scroll to their section of the dashboard (spec §2). */
const SECTIONS: { key: string; label: string; icon: IconName; sectionId: string }[] = [
  { key: 'ongoing', label: 'admin.nav.ongoing', icon: 'projects', sectionId: 'ongoing-projects' },
  { key: 'completed', label: 'admin.nav.completed', icon: 'completed', sectionId: 'completed-projects' },
  { key: 'appraisal', label: 'admin.nav.appraisal', icon: 'report', sectionId: 'appraisal-report' },
  { key: 'daily-logs', label: 'dailyLog.adminNav', icon: 'dailyLog', sectionId: 'daily-logs' },
];

/** The admin's shell; `calendarFeed` is the header's calendar tool, `account` the user's menu, `notices` stand above the page. */
export function AdminLayout({ calendarFeed, account, notices }: { calendarFeed?: ReactNode; account?: ReactNode; notices?: ReactNode }) {
  const { t } = useTranslation();
  const { user, logout } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();

  const scrollTo = (sectionId: string) => {
    const go = () => document.getElementById(sectionId)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    if (location.pathname === '/admin') go();
    else navigate('/admin', { state: { scrollTo: sectionId } });
  };

  const nav: ShellNavItem[] = [
    {
      key: 'dashboard',
      label: t('admin.nav.dashboard'),
      icon: <Icon name="dashboard" />,
      render: ({ className, children, onNavigate }) => (
        <Link to="/admin" className={className} aria-current={location.pathname === '/admin' ? 'page' : undefined} onClick={onNavigate}>
          {children}
        </Link>
      ),
    },
    ...SECTIONS.map<ShellNavItem>((section) => ({
      key: section.key,
      label: t(section.label),
      icon: <Icon name={section.icon} />,
      render: ({ className, children, onNavigate }) => (
        <button
          type="button"
          className={className}
          onClick={() => {
            onNavigate();
            scrollTo(section.sectionId);
          }}
        >
          {children}
        </button>
      ),
    })),
    {
      key: 'drawings',
      label: t('drawings.nav'),
      icon: <Icon name="drawings" />,
      render: ({ className, children, onNavigate }) => (
        <Link to="/admin/drawings" className={className} aria-current={location.pathname === '/admin/drawings' ? 'page' : undefined} onClick={onNavigate}>
          {children}
        </Link>
      ),
    },
    {
      key: 'company-settings',
      label: t('admin.nav.companySettings'),
      icon: <Icon name="settings" />,
      render: ({ className, children, onNavigate }) => (
        <Link to="/admin/company-settings" className={className} aria-current={location.pathname === '/admin/company-settings' ? 'page' : undefined} onClick={onNavigate}>
          {children}
        </Link>
      ),
    },
  ];

  return (
    <Shell
      nav={nav}
      onLogout={() => void logout()}
      headerStart={user?.company?.name ?? t('shell.noCompany')}
      notices={notices}
      headerEnd={
        <>
          {calendarFeed}
          <span className="rounded-full bg-brand-100 px-3 py-1 text-xs font-semibold text-brand-700">{t('shell.adminBadge')}</span>
          {account}
          {/* At phone width the sidebar's Logout stands in, and the header keeps room for the company's name. */}
          <Button variant="secondary" className="whitespace-nowrap max-sm:hidden" onClick={() => void logout()}>
            {t('shell.logout')}
          </Button>
        </>
      }
    >
      <Outlet />
    </Shell>
  );
}
