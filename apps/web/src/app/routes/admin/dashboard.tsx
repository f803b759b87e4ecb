import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';
import { PageTitle } from '../../../components/ui/page-title';
import { useAuth } from '../../../lib/auth';

const SECTIONS = [
  { id: 'user-management', title: 'admin.userManagement', action: { to: '/admin/create-user', label: 'admin.createUser' } },
  { id: 'ongoing-projects', title: 'admin.ongoingProjects', action: { to: '/admin/create-project', label: 'admin.createProject' } },
  { id: 'completed-projects', title: 'admin.completedProjects' },
  { id: 'appraisal-report', title: 'admin.appraisalReport' },
] as const;

export function AdminDashboardPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const location = useLocation();

  // Arriving from another admin page through a sidebar section link.
  useEffect(() => {
    const target = (location.state as { scrollTo?: string } | null)?.scrollTo;
    if (target) document.getElementById(target)?.scrollIntoView({ block: 'start' });
  }, [location.state]);

  return (
    <>
      <PageTitle>
        {t('admin.title')} <span className="block break-all text-brand-700 sm:inline">{user?.email}</span>
      </PageTitle>
      <div className="space-y-6">
        {SECTIONS.map((section) => (
          <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className="scroll-mt-20 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h2 id={`${section.id}-title`} className="text-lg font-semibold text-ink">
                {t(section.title)}
              </h2>
              {'action' in section && (
                <Link to={section.action.to} className={buttonClasses('primary')}>
                  {t(section.action.label)}
                </Link>
              )}
            </div>
          </section>
        ))}
      </div>
    </>
  );
}
