import { DailyLogPage } from '../../../features/daily-logs/components/daily-log-pages';

/** The manager's daily log of the projects they run (issue 45). */
export function ManagerDailyLogPage() {
  return <DailyLogPage />;
}
