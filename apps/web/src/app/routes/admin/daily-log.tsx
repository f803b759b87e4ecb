import { DailyLogPage } from '../../../features/daily-logs/components/daily-log-pages';

/** An admin keeps and signs any project's daily log, as its manager does (issue 45). */
export function AdminDailyLogPage() {
  return <DailyLogPage />;
}
