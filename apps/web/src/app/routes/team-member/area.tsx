import { Route } from 'react-router';
import { RoleArea, workShell } from '../../role-area';
import { lazyScreen, usePrefetchWhenIdle } from '../../lazy-screen';
import { WorkDashboardPage } from '../work-dashboard';
import { usePrefetchAreaData } from '../../use-prefetch-area-data';

// The dashboard comes with the area; the other screens are one chunk, fetched once the dashboard is idle.
const loadPages = () => import('./pages');
const projects = lazyScreen(loadPages, (module) => module.TeamMemberProjectsPage);
const createTask = lazyScreen(loadPages, (module) => module.TeamMemberCreateTaskPage);
const myTasks = lazyScreen(loadPages, (module) => module.TeamMemberMyTasksPage);
const dailyLog = lazyScreen(loadPages, (module) => module.TeamMemberDailyLogPage);
// The viewer (OpenSeadragon) is a chunk of its own: the other pages do not carry it.
const drawings = lazyScreen(() => import('./drawings'), (module) => module.TeamMemberDrawingsPage);

export function TeamMemberArea() {
  usePrefetchWhenIdle('/team-member');
  usePrefetchAreaData('team_member');
  return (
    <RoleArea role="team_member" shell={workShell('team-member')}>
      <Route index element={<WorkDashboardPage board="team_member" loadProjects={projects.load} />} />
      <Route path="projects" element={<projects.Screen />} />
      <Route path="create-task" element={<createTask.Screen />} />
      <Route path="my-tasks" element={<myTasks.Screen />} />
      <Route path="daily-log" element={<dailyLog.Screen />} />
      <Route path="drawings" element={<drawings.Screen />} />
    </RoleArea>
  );
}
