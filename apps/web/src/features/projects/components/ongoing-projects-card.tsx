import { useTranslation } from 'react-i18next';
import { StatCard } from '../../../components/ui/stat-card';
import { useProjectCount } from '../api/get-projects';

/** The dashboard card counting ongoing (and planned) projects; it leads to the projects screen. */
export function OngoingProjectsCard({ to }: { to: string }) {
  const { t } = useTranslation();
  const count = useProjectCount('ongoing');
  return <StatCard to={to} label={t('projectBoard.ongoing')} count={count.data} />;
}
