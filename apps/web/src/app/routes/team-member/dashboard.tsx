import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';
import { OngoingProjectsCard } from '../../../features/projects/components/ongoing-projects-card';
import { TaskDashboard } from '../../../features/tasks/components/task-dashboard';
import { useAuth } from '../../../lib/auth';

export function TeamMemberDashboardPage({ loadProjects }: { loadProjects?: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  return (
    <>
      <PageTitle>{t('teamMember.welcome', { name: user?.code || t('teamMember.fallbackName') })}</PageTitle>
      <TaskDashboard board="team_member" leadingCard={(count) => <OngoingProjectsCard to="/team-member/projects" count={count} loadScreen={loadProjects} />} />
    </>
  );
}
