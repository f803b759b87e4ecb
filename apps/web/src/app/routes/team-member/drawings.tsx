import { getDailyLogProjectsQueryOptions } from '../../../features/daily-logs/api/get-daily-log-projects';
import { DrawingsPage } from '../../../features/sheets/components/drawings-page';

/** The crew's drawings on their phone: the sheets of the projects they have work in, with the pins (issue 43). */
export function TeamMemberDrawingsPage() {
  return <DrawingsPage projectsQuery={getDailyLogProjectsQueryOptions('')} />;
}
