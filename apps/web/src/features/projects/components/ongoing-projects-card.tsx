import { useTranslation } from 'react-i18next';
import { StatCard } from '../../../components/ui/stat-card';
import { useProjects } from '../api/get-projects';
import { countOngoing } from '../projects.rules';

/** The dashboard card counting ongoing (and planned) projects; it leads to the projects screen. */
export function OngoingProjectsCard({ to }: { to: string }) {
  const { t } = useTranslation();
  const projects = useProjects();
  return <StatCard to={to} label={t('projectBoard.ongoing')} count={projects.data && countOngoing(projects.data)} />;
}
