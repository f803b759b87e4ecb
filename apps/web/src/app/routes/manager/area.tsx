import { Navigate, Route, Routes } from 'react-router';
import { RequireRole } from '../../../components/layouts/require-role';
import { CalendarFeedButton } from '../../../features/calendar/components/calendar-feed-button';
import { AreaNotifications } from '../../area-notifications';
import { RecordDrawer } from '../../record-drawer';
import { WorkLayout } from '../../../components/layouts/work-layout';
import { ManagerCreateTaskPage } from './create-task';
import { ManagerDashboardPage } from './dashboard';
import { ManagerMyTasksPage } from './my-tasks';
import { ManagerProjectsPage } from './projects';
import { TeamPerformancePage } from './team-performance';

export function ManagerArea() {
  return (
    <RequireRole role="manager">
      <Routes>
        <Route element={<WorkLayout area="manager" notifications={<AreaNotifications />} calendarFeed={<CalendarFeedButton />} />}>
          <Route index element={<ManagerDashboardPage />} />
          <Route path="projects" element={<ManagerProjectsPage />} />
          <Route path="create-task" element={<ManagerCreateTaskPage />} />
          <Route path="my-tasks" element={<ManagerMyTasksPage />} />
          <Route path="team-assignments" element={<TeamPerformancePage />} />
        </Route>
        <Route path="*" element={<Navigate to="/company-selection" replace />} />
      </Routes>
      <RecordDrawer />
    </RequireRole>
  );
}

/** The spec names two paths for team performance; /team-performance shows the same screen. */
export function TeamPerformanceArea() {
  return (
    <RequireRole role="manager">
      <Routes>
        <Route element={<WorkLayout area="manager" notifications={<AreaNotifications />} calendarFeed={<CalendarFeedButton />} />}>
          <Route index element={<TeamPerformancePage />} />
        </Route>
      </Routes>
      <RecordDrawer />
    </RequireRole>
  );
}
