import { useTranslation } from 'react-i18next';
import { DownloadListButtons } from '../../../components/ui/download-list-buttons';
import { PageTitle } from '../../../components/ui/page-title';
import { SectionHeading } from '../../../components/ui/section-heading';
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
          <SectionHeading id="team-workload" action={<DownloadListButtons path="/api/team-workload/" subject={t('team.workload')} />}>
            {t('team.workload')}
          </SectionHeading>
          <TeamWorkload />
        </section>
        <section aria-labelledby="team-performance" className="space-y-3">
          {/* Not the page's title again (the same words in German, Spanish and French): the cards are per person. */}
          <SectionHeading id="team-performance">{t('team.performanceByMember')}</SectionHeading>
          <TeamPerformance renderItem={(item) => <PerformanceCard item={item} />} />
        </section>
      </div>
    </>
  );
}
