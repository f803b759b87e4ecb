import { Route } from 'react-router';
import { AdminLayout } from '../../../components/layouts/admin-layout';
import { lazyScreen, usePrefetchWhenIdle } from '../../lazy-screen';
import { calendarFeed, RoleArea } from '../../role-area';
import { accountMenu, pageNotices } from '../../work-area-tools';
import { AdminDashboardPage } from './dashboard';

// The dashboard comes with the area; the forms and settings are their own chunks, fetched once it is idle.
// The account menu (its forms validate with zod and list the time zones) and the calendar tool load
// after the dashboard's first paint, as in the other areas (decision record 095).
const createUser = lazyScreen(() => import('./create-user'), (module) => module.AdminCreateUserPage);
const createProject = lazyScreen(() => import('./create-project'), (module) => module.AdminCreateProjectPage);
const invitations = lazyScreen(() => import('./invitations'), (module) => module.AdminInvitationsPage);
const companySettings = lazyScreen(() => import('./company-settings'), (module) => module.AdminCompanySettingsPage);
const dailyLog = lazyScreen(() => import('./daily-log'), (module) => module.AdminDailyLogPage);
const drawings = lazyScreen(() => import('./drawings'), (module) => module.AdminDrawingsPage);

export function AdminArea() {
  usePrefetchWhenIdle('/admin');
  return (
    <RoleArea role="admin" shell={<AdminLayout calendarFeed={calendarFeed} account={accountMenu('A')} notices={pageNotices} />}>
      <Route index element={<AdminDashboardPage />} />
      <Route path="create-user" element={<createUser.Screen />} />
      <Route path="create-project" element={<createProject.Screen />} />
      <Route path="invitations" element={<invitations.Screen />} />
      <Route path="company-settings" element={<companySettings.Screen />} />
      <Route path="daily-log" element={<dailyLog.Screen />} />
      <Route path="drawings" element={<drawings.Screen />} />
    </RoleArea>
  );
}
