import { Navigate, Route, Routes } from 'react-router';
import { RequireRole } from '../../../components/layouts/require-role';
import { CalendarFeedButton } from '../../../features/calendar/components/calendar-feed-button';
import { AreaNotifications } from '../../area-notifications';
import { RecordDrawer } from '../../record-drawer';
import { PasswordGate } from '../../password-gate';
import { accountMenu as account, offlineTools as offline } from '../../work-area-tools';
import { WorkLayout } from '../../../components/layouts/work-layout';
import { lazyScreen, usePrefetchWhenIdle } from '../../lazy-screen';
import { ManagerDashboardPage } from './dashboard';

// The dashboard comes with the area; every other screen is its own chunk, fetched once the dashboard is idle.
const projects = lazyScreen(() => import('./projects'), (module) => module.ManagerProjectsPage);
const createTask = lazyScreen(() => import('./create-task'), (module) => module.ManagerCreateTaskPage);
const myTasks = lazyScreen(() => import('./my-tasks'), (module) => module.ManagerMyTasksPage);
const teamPerformance = lazyScreen(() => import('./team-performance'), (module) => module.TeamPerformancePage);
const NEXT_SCREENS = [projects, createTask, myTasks, teamPerformance];

export function ManagerArea() {
  usePrefetchWhenIdle(NEXT_SCREENS);
  return (
    <RequireRole role="manager">
      <PasswordGate>
      <Routes>
        <Route element={<WorkLayout area="manager" notifications={<AreaNotifications />} calendarFeed={<CalendarFeedButton />} offline={offline} account={account} />}>
          <Route index element={<ManagerDashboardPage loadProjects={projects.load} />} />
          <Route path="projects" element={<projects.Screen />} />
          <Route path="create-task" element={<createTask.Screen />} />
          <Route path="my-tasks" element={<myTasks.Screen />} />
          <Route path="team-assignments" element={<teamPerformance.Screen />} />
        </Route>
        <Route path="*" element={<Navigate to="/company-selection" replace />} />
      </Routes>
      <RecordDrawer />
      </PasswordGate>
    </RequireRole>
  );
}

/** The spec names two paths for team performance; /team-performance shows the same screen. */
export function TeamPerformanceArea() {
  return (
    <RequireRole role="manager">
      <PasswordGate>
      <Routes>
        <Route element={<WorkLayout area="manager" notifications={<AreaNotifications />} calendarFeed={<CalendarFeedButton />} offline={offline} account={account} />}>
          <Route index element={<teamPerformance.Screen />} />
        </Route>
      </Routes>
      <RecordDrawer />
      </PasswordGate>
    </RequireRole>
  );
}
