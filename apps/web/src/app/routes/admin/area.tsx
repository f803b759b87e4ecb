import { Navigate, Route, Routes } from 'react-router';
import { AdminLayout } from '../../../components/layouts/admin-layout';
import { RecordDrawer } from '../../record-drawer';
import { PasswordGate } from '../../password-gate';
import { AccountMenu } from '../../../features/auth/components/account-menu';
import { RequireRole } from '../../../components/layouts/require-role';
import { CalendarFeedButton } from '../../../features/calendar/components/calendar-feed-button';
import { AdminCreateProjectPage } from './create-project';
import { AdminCreateUserPage } from './create-user';
import { AdminDashboardPage } from './dashboard';

export function AdminArea() {
  return (
    <RequireRole role="admin">
      <PasswordGate>
      <Routes>
        <Route element={<AdminLayout calendarFeed={<CalendarFeedButton />} account={<AccountMenu avatar="A" />} />}>
          <Route index element={<AdminDashboardPage />} />
          <Route path="create-user" element={<AdminCreateUserPage />} />
          <Route path="create-project" element={<AdminCreateProjectPage />} />
        </Route>
        <Route path="*" element={<Navigate to="/company-selection" replace />} />
      </Routes>
      <RecordDrawer />
      </PasswordGate>
    </RequireRole>
  );
}
