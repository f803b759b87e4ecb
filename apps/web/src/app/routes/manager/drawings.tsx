import { getDailyLogProjectsQueryOptions } from '../../../features/daily-logs/api/get-daily-log-projects';
import { DrawingsPage } from '../../../features/sheets/components/drawings-page';

/** The manager's drawings of the projects they run: upload, version, pin (issue 43). */
export function ManagerDrawingsPage() {
  return <DrawingsPage projectsQuery={getDailyLogProjectsQueryOptions('')} />;
}
