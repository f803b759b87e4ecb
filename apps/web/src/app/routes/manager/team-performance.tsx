import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';
import { PerformanceCard } from '../../../features/reports/components/performance-card';
import { useSubtasks } from '../../../features/tasks/api/get-subtasks';
import { TeamPerformance } from '../../../features/team/components/team-performance';
import { TeamWorkload } from '../../../features/team/components/team-workload';
import { useRefreshParam } from '../../../lib/use-refresh-param';

/** The team's ongoing subtasks; work in completed projects is done with: it is no one's workload. */
const TEAM_ONGOING_WORK = { assigned_to: 'my_team', status: 'ongoing', project_status: 'ongoing,planned' } as const;

export function TeamPerformancePage() {
  const { t } = useTranslation();
  useRefreshParam();
  const ongoing = useSubtasks(TEAM_ONGOING_WORK);
  return (
    <>
      <PageTitle>{t('manager.performanceTitle')}</PageTitle>
      <div className="space-y-8">
        <section aria-labelledby="team-workload" className="space-y-3">
          <h2 id="team-workload" className="text-lg font-semibold text-ink">
            {t('team.workload')}
          </h2>
          <TeamWorkload ongoingTasks={ongoing.data} tasksFailed={ongoing.isError} />
        </section>
        <section aria-labelledby="team-performance" className="space-y-3">
          <h2 id="team-performance" className="text-lg font-semibold text-ink">
            {t('team.performance')}
          </h2>
          <TeamPerformance renderItem={(item) => <PerformanceCard item={item} />} />
        </section>
      </div>
    </>
  );
}
