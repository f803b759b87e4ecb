import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { StatCard } from '../../../components/ui/stat-card';
import { prefetchPagedList } from '../../../lib/lists';
import { FIRST_PROJECT_FILTER, getProjectPagesQuery } from '../api/get-projects';

/**
 * The dashboard card counting ongoing (and planned) projects (the count comes with the
 * dashboard's summary); it leads to the projects screen, whose code (`loadScreen`) and first
 * page it fetches as soon as the card is pointed at.
 */
export function OngoingProjectsCard({ to, count, loadScreen }: { to: string; count: number | undefined; loadScreen?: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const onIntent = () => {
    void loadScreen?.();
    void prefetchPagedList(queryClient, getProjectPagesQuery(FIRST_PROJECT_FILTER));
  };
  return <StatCard to={to} label={t('projectBoard.ongoing')} count={count} onIntent={onIntent} />;
}
