import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';
import { OngoingProjectsCard } from '../../../features/projects/components/ongoing-projects-card';
import { TaskDashboard } from '../../../features/tasks/components/task-dashboard';
import { useAuth } from '../../../lib/auth';

export function ManagerDashboardPage({ loadProjects }: { loadProjects?: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  return (
    <>
      <PageTitle>{t('manager.welcome', { name: user?.code || t('manager.fallbackName') })}</PageTitle>
      <TaskDashboard board="manager" leadingCard={(count) => <OngoingProjectsCard to="/manager/projects" count={count} loadScreen={loadProjects} />} />
    </>
  );
}
