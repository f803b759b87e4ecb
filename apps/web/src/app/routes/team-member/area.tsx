import { Navigate, Route, Routes } from 'react-router';
import { RequireRole } from '../../../components/layouts/require-role';
import { CalendarFeedButton } from '../../../features/calendar/components/calendar-feed-button';
import { AreaNotifications } from '../../area-notifications';
import { RecordDrawer } from '../../record-drawer';
import { WorkLayout } from '../../../components/layouts/work-layout';
import { TeamMemberCreateTaskPage, TeamMemberDashboardPage, TeamMemberMyTasksPage, TeamMemberProjectsPage } from './pages';

export function TeamMemberArea() {
  return (
    <RequireRole role="team_member">
      <Routes>
        <Route element={<WorkLayout area="team-member" notifications={<AreaNotifications />} calendarFeed={<CalendarFeedButton />} />}>
          <Route index element={<TeamMemberDashboardPage />} />
          <Route path="projects" element={<TeamMemberProjectsPage />} />
          <Route path="create-task" element={<TeamMemberCreateTaskPage />} />
          <Route path="my-tasks" element={<TeamMemberMyTasksPage />} />
        </Route>
        <Route path="*" element={<Navigate to="/company-selection" replace />} />
      </Routes>
      <RecordDrawer />
    </RequireRole>
  );
}
