import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../components/ui/page-title';
import { OngoingProjectsCard } from '../../features/projects/components/ongoing-projects-card';
import { TaskDashboard } from '../../features/tasks/components/task-dashboard';
import { useAuth } from '../../lib/auth';

const BOARDS = {
  manager: { welcome: 'manager.welcome', fallbackName: 'manager.fallbackName', projects: '/manager/projects' },
  team_member: { welcome: 'teamMember.welcome', fallbackName: 'teamMember.fallbackName', projects: '/team-member/projects' },
} as const;

/** The manager's and the team member's dashboard: a welcome by user code, the ongoing projects card, then their task cards. */
export function WorkDashboardPage({ board, loadProjects }: { board: keyof typeof BOARDS; loadProjects?: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const words = BOARDS[board];
  return (
    <>
      <PageTitle>{t(words.welcome, { name: user?.code || t(words.fallbackName) })}</PageTitle>
      <TaskDashboard board={board} leadingCard={(count) => <OngoingProjectsCard to={words.projects} count={count} loadScreen={loadProjects} />} />
    </>
  );
}
