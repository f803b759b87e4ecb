import { useTranslation } from 'react-i18next';
import { DownloadCsvButton } from '../../../components/ui/download-csv-button';
import { PageTitle } from '../../../components/ui/page-title';
import { PerformanceCard } from '../../../features/reports/components/performance-card';
import { TeamPerformance } from '../../../features/reports/components/team-performance';
import { TeamWorkload } from '../../../features/users/components/team-workload';
import { useRefreshParam } from '../../../lib/use-refresh-param';

export function TeamPerformancePage() {
  const { t } = useTranslation();
  useRefreshParam();
  return (
    <>
      <PageTitle>{t('manager.performanceTitle')}</PageTitle>
      <div className="space-y-8">
        <section aria-labelledby="team-workload" className="space-y-3">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="team-workload" className="text-lg font-semibold text-ink">
              {t('team.workload')}
            </h2>
            <DownloadCsvButton path="/api/team-workload/" subject={t('team.workload')} />
          </div>
          <TeamWorkload />
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
