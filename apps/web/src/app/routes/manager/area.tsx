import { Route } from 'react-router';
import { RoleArea, workShell } from '../../role-area';
import { lazyScreen, usePrefetchWhenIdle } from '../../lazy-screen';
import { WorkDashboardPage } from '../work-dashboard';
import { usePrefetchAreaData } from '../../use-prefetch-area-data';

// The dashboard comes with the area; every other screen is its own chunk, fetched once the dashboard is idle.
const projects = lazyScreen(() => import('./projects'), (module) => module.ManagerProjectsPage);
const createTask = lazyScreen(() => import('./create-task'), (module) => module.ManagerCreateTaskPage);
const myTasks = lazyScreen(() => import('./my-tasks'), (module) => module.ManagerMyTasksPage);
const teamPerformance = lazyScreen(() => import('./team-performance'), (module) => module.TeamPerformancePage);
const dailyLog = lazyScreen(() => import('./daily-log'), (module) => module.ManagerDailyLogPage);
const drawings = lazyScreen(() => import('./drawings'), (module) => module.ManagerDrawingsPage);

export function ManagerArea() {
  usePrefetchWhenIdle('/manager');
  usePrefetchAreaData('manager');
  return (
    <RoleArea role="manager" shell={workShell('manager')}>
      <Route index element={<WorkDashboardPage board="manager" loadProjects={projects.load} />} />
      <Route path="projects" element={<projects.Screen />} />
      <Route path="create-task" element={<createTask.Screen />} />
      <Route path="my-tasks" element={<myTasks.Screen />} />
      <Route path="team-assignments" element={<teamPerformance.Screen />} />
      <Route path="daily-log" element={<dailyLog.Screen />} />
      <Route path="drawings" element={<drawings.Screen />} />
    </RoleArea>
  );
}

/** The spec names two paths for team performance; /team-performance shows the same screen. */
export function TeamPerformanceArea() {
  return (
    <RoleArea role="manager" shell={workShell('manager')}>
      <Route index element={<teamPerformance.Screen />} />
    </RoleArea>
  );
}
