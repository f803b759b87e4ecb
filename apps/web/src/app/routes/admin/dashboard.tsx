import { useQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { lazy, memo, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import { ADMIN_MISSING_LOGS_DAYS, type AdminDashboard, type User } from '@siteboard/shared';
import { Alert } from '../../../components/ui/alert';
import { buttonClasses } from '../../../components/ui/button';
import { DownloadListButtons } from '../../../components/ui/download-list-buttons';
import { EmailText } from '../../../components/ui/email-text';
import { PageTitle } from '../../../components/ui/page-title';
import { SectionCard } from '../../../components/ui/section-card';
import { ListSkeleton } from '../../../components/ui/list-skeleton';
import { getAdminDashboard, getAdminDashboardQueryOptions } from '../../../features/admin-dashboard/api/get-admin-dashboard';
import { AdminProjectsTable } from '../../../features/projects/components/admin-projects-table';
import { getProjectPagesQuery, PROJECT_ORDER, useProjectPages } from '../../../features/projects/api/get-projects';
import { statusesOf } from '../../../features/projects/projects.rules';
import { getMissingDailyLogsQueryOptions } from '../../../features/daily-logs/api/get-missing-daily-logs';
import { MissingLogs } from '../../../features/daily-logs/components/missing-logs';
import { getManagersQueryOptions, getUserPagesQuery, searchPeopleQuery, useManagers, useUserPages } from '../../../features/users/api/get-users';
import { AdminUsersTable } from '../../../features/users/components/admin-users-table';
import type { ListPage } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useEmailStatus } from '../../../lib/email-status';
import { useQueryFailure } from '../../../lib/failure-message';
import { useDebouncedValue } from '../../../lib/lists';
import { storage } from '../../../lib/storage';
import { useRefreshParam } from '../../../lib/use-refresh-param';
import { AfterFirstPaint } from '../../after-first-paint';

// The appraisal report (its form with react-hook-form, the person picker, the chart) is below the fold
// on every screen: it loads and draws once the lists above it have been painted (decision record 098).
const AdminAppraisalReport = lazy(() => import('../../../features/reports/components/admin-appraisal-report').then((module) => ({ default: module.AdminAppraisalReport })));

export function AdminDashboardPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const location = useLocation();

  // Arriving from another admin page through a sidebar section link, or after creating a project.
  useEffect(() => {
    const target = (location.state as { scrollTo?: string } | null)?.scrollTo;
    if (target) document.getElementById(target)?.scrollIntoView({ block: 'start' });
  }, [location.state]);

  // Spec §8: the dashboard needs a token and the admin's company before it asks for anything.
  const precondition = !storage.token ? t('admin.noToken') : !user?.company_id ? t('admin.noCompany') : null;
  return (
    <>
      <PageTitle>
        {t('admin.title')} <span className="block text-brand-700 sm:inline">{user && <EmailText email={user.email} />}</span>
      </PageTitle>
      {precondition || !user ? <Alert tone="error">{precondition}</Alert> : <DashboardSections admin={user} />}
    </>
  );
}

/** How long the first pages the one dashboard call brought count as fresh: the lists do not ask again as they appear. */
const FIRST_PAGES_FRESH_MS = 30_000;

/**
 * Puts each first page of the dashboard's answer where its list keeps it, so every list shows it
 * at once and its Show More, search and reloads go on through its own call (decision record 068).
 * A list the admin has opened further keeps its pages.
 */
function seedLists(queryClient: QueryClient, dashboard: AdminDashboard) {
  const firstPage = <T,>(page: ListPage<T>) => (old: InfiniteData<ListPage<T>, number> | undefined) => (old && old.pages.length > 1 ? old : { pages: [page], pageParams: [0] });
  queryClient.setQueryData(getUserPagesQuery('').queryKey, firstPage(dashboard.users));
  queryClient.setQueryData(getManagersQueryOptions().queryKey, dashboard.managers);
  queryClient.setQueryData(getProjectPagesQuery({ tab: 'ongoing' }).queryKey, firstPage(dashboard.ongoing_projects));
  queryClient.setQueryData(getProjectPagesQuery({ tab: 'completed' }).queryKey, firstPage(dashboard.completed_projects));
  queryClient.setQueryData(getMissingDailyLogsQueryOptions(ADMIN_MISSING_LOGS_DAYS).queryKey, dashboard.missing_logs);
}

function DashboardSections({ admin }: { admin: User }) {
  const queryClient = useQueryClient();
  // One round trip for the whole first screen instead of five (a phone's latency, each list arriving
  // on its own moved the page under the reader). The lists wait for it; should it fail, they ask themselves.
  const firstPages = useQuery({
    ...getAdminDashboardQueryOptions(),
    queryFn: async () => {
      const dashboard = await getAdminDashboard();
      seedLists(queryClient, dashboard);
      return dashboard;
    },
    // The lists refresh themselves on focus; asking again here would fold a list opened further.
    refetchOnWindowFocus: false,
  });
  const ready = firstPages.data !== undefined || firstPages.isError;
  return ready ? <Sections adminId={admin.id} /> : <SectionsLoading />;
}

/** The dashboard's sections at about the size they will have, so nothing moves when the answer arrives. */
function SectionsLoading() {
  const { t } = useTranslation();
  return (
    <div className="space-y-6">
      <SectionCard id="user-management" title={t('admin.userManagement')}>
        <ListSkeleton rows={8} label={t('app.loading')} />
      </SectionCard>
      <SectionCard id="ongoing-projects" title={t('admin.ongoingProjects')}>
        <ListSkeleton rows={5} label={t('app.loading')} />
      </SectionCard>
      <SectionCard id="completed-projects" title={t('admin.completedProjects')}>
        <ListSkeleton rows={3} label={t('app.loading')} />
      </SectionCard>
    </div>
  );
}

/**
 * The lists, drawn from the dashboard's answer. Memoised on the admin's id: the profile confirming
 * the stored user, or the mail setting arriving, does not draw every row again.
 */
const Sections = memo(function Sections({ adminId }: { adminId: number }) {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  // `/admin?refresh=true` is where a new user lands (spec §2): say so, and load everything again.
  const [userCreated] = useState(() => searchParams.get('refresh') === 'true');
  useRefreshParam();
  // A page of each list at a time: a company of thousands of people and projects loads as fast as a small one.
  const [userSearch, setUserSearch] = useState('');
  const users = useUserPages(useDebouncedValue(userSearch.trim()), FIRST_PAGES_FRESH_MS);
  const managers = useManagers(FIRST_PAGES_FRESH_MS);
  // Newest first: a project just created heads its list.
  const ongoing = useProjectPages({ tab: 'ongoing' }, FIRST_PAGES_FRESH_MS);
  const completed = useProjectPages({ tab: 'completed' }, FIRST_PAGES_FRESH_MS);
  const loadFailure = useQueryFailure(users.query.error ?? ongoing.query.error ?? completed.query.error, { other: 'admin.loadFailed' });

  const loading = <ListSkeleton rows={5} label={t('app.loading')} />;
  return (
    <div className="space-y-6">
      {loadFailure && <Alert tone="error">{loadFailure}</Alert>}
      <SectionCard
        id="user-management"
        title={t('admin.userManagement')}
        action={<UserActions />}
      >
        {users.query.data ? (
          <AdminUsersTable
            users={users.items}
            list={users}
            search={userSearch}
            onSearch={setUserSearch}
            managers={managers.data ?? []}
            currentUserId={adminId}
            notice={userCreated ? t('admin.users.created') : undefined}
          />
        ) : (
          users.query.isPending && loading
        )}
      </SectionCard>
      <SectionCard
        id="ongoing-projects"
        title={t('admin.ongoingProjects')}
        action={
          <div className="flex flex-wrap items-start gap-2">
            <DownloadListButtons path="/api/projects/" query={{ status: statusesOf('ongoing'), order: PROJECT_ORDER }} subject={t('admin.ongoingProjects')} />
            <Link to="/admin/create-project" className={buttonClasses('primary')}>
              {t('admin.createProject')}
            </Link>
          </div>
        }
      >
        {ongoing.query.data ? (
          // The project tables are drawn once the users above them have been painted, each in a task of its own, in the place kept for them.
          <AfterFirstPaint placeholder={<ListSkeleton rows={5} label={t('app.loading')} />}>
            <AdminProjectsTable kind="ongoing" projects={ongoing.items} list={ongoing} managers={managers.data ?? []} />
          </AfterFirstPaint>
        ) : (
          ongoing.query.isPending && loading
        )}
      </SectionCard>
      <SectionCard
        id="completed-projects"
        title={t('admin.completedProjects')}
        action={<DownloadListButtons path="/api/projects/" query={{ status: statusesOf('completed'), order: PROJECT_ORDER }} subject={t('admin.completedProjects')} />}
      >
        {completed.query.data ? (
          <AfterFirstPaint placeholder={<ListSkeleton rows={3} label={t('app.loading')} />}>
            <AdminProjectsTable kind="completed" projects={completed.items} list={completed} managers={managers.data ?? []} />
          </AfterFirstPaint>
        ) : (
          completed.query.isPending && loading
        )}
      </SectionCard>
      <SectionCard id="appraisal-report" title={t('admin.appraisalReport')}>
        <AfterFirstPaint placeholder={<AppraisalPlaceholder />}>
          <AdminAppraisalReport findPeople={searchPeopleQuery} />
        </AfterFirstPaint>
      </SectionCard>
      <SectionCard
        id="daily-logs"
        title={t('dailyLog.missing.title')}
        action={
          <Link to="/admin/daily-log" className={buttonClasses('secondary')}>
            {t('dailyLog.missing.open')}
          </Link>
        }
      >
        {/* A chip for every day without a log: drawn after the lists above, in a task of its own. */}
        <AfterFirstPaint placeholder={<ListSkeleton rows={3} label={t('app.loading')} />}>
          <MissingLogs logPath="/admin/daily-log" staleTime={FIRST_PAGES_FRESH_MS} />
        </AfterFirstPaint>
      </SectionCard>
    </div>
  );
});

/** Invitations (only where the server sends mail) and Create User: the mail setting arriving redraws these links, not the list. */
function UserActions() {
  const { t } = useTranslation();
  const mailConfigured = useEmailStatus().data?.configured === true;
  return (
    <div className="flex flex-wrap items-start gap-2">
      {mailConfigured && (
        <Link to="/admin/invitations" className={buttonClasses('secondary')}>
          {t('invitations.title')}
        </Link>
      )}
      <Link to="/admin/create-user" className={buttonClasses('primary')}>
        {t('admin.createUser')}
      </Link>
    </div>
  );
}

/** Where the appraisal form will be, at about its height at each width (its fields in one row from 1024 px, two from 640, one above another on a phone). */
function AppraisalPlaceholder() {
  const { t } = useTranslation();
  return (
    <div role="status" className="h-[29.5rem] animate-pulse rounded-lg bg-slate-100 motion-reduce:animate-none sm:h-64 lg:h-[8.5rem]">
      <span className="sr-only">{t('app.loading')}</span>
    </div>
  );
}
