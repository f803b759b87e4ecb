import { Navigate, Route, Routes } from 'react-router';
import { RequireRole } from '../../../components/layouts/require-role';
import { CalendarFeedButton } from '../../../features/calendar/components/calendar-feed-button';
import { AreaNotifications } from '../../area-notifications';
import { RecordDrawer } from '../../record-drawer';
import { PasswordGate } from '../../password-gate';
import { accountMenu as account, offlineTools as offline } from '../../work-area-tools';
import { WorkLayout } from '../../../components/layouts/work-layout';
import { lazyScreen, usePrefetchWhenIdle } from '../../lazy-screen';
import { TeamMemberDashboardPage } from './dashboard';

// The dashboard comes with the area; the other screens are one chunk, fetched once the dashboard is idle.
const loadPages = () => import('./pages');
const projects = lazyScreen(loadPages, (module) => module.TeamMemberProjectsPage);
const createTask = lazyScreen(loadPages, (module) => module.TeamMemberCreateTaskPage);
const myTasks = lazyScreen(loadPages, (module) => module.TeamMemberMyTasksPage);
const NEXT_SCREENS = [projects];

export function TeamMemberArea() {
  usePrefetchWhenIdle(NEXT_SCREENS);
  return (
    <RequireRole role="team_member">
      <PasswordGate>
      <Routes>
        <Route element={<WorkLayout area="team-member" notifications={<AreaNotifications />} calendarFeed={<CalendarFeedButton />} offline={offline} account={account} />}>
          <Route index element={<TeamMemberDashboardPage loadProjects={projects.load} />} />
          <Route path="projects" element={<projects.Screen />} />
          <Route path="create-task" element={<createTask.Screen />} />
          <Route path="my-tasks" element={<myTasks.Screen />} />
        </Route>
        <Route path="*" element={<Navigate to="/company-selection" replace />} />
      </Routes>
      <RecordDrawer />
      </PasswordGate>
    </RequireRole>
  );
}
