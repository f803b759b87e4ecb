import { Route } from 'react-router';
import { AdminLayout } from '../../../components/layouts/admin-layout';
import { AccountMenu } from '../../../features/auth/components/account-menu';
import { CalendarFeedButton } from '../../../features/calendar/components/calendar-feed-button';
import { RoleArea } from '../../role-area';
import { AdminCompanySettingsPage } from './company-settings';
import { AdminCreateProjectPage } from './create-project';
import { AdminCreateUserPage } from './create-user';
import { AdminDashboardPage } from './dashboard';

export function AdminArea() {
  return (
    <RoleArea role="admin" shell={<AdminLayout calendarFeed={<CalendarFeedButton />} account={<AccountMenu avatar="A" />} />}>
      <Route index element={<AdminDashboardPage />} />
      <Route path="create-user" element={<AdminCreateUserPage />} />
      <Route path="create-project" element={<AdminCreateProjectPage />} />
      <Route path="company-settings" element={<AdminCompanySettingsPage />} />
    </RoleArea>
  );
}
