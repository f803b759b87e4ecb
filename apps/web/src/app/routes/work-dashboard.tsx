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
  const name = user?.code || t(words.fallbackName);
  const title = t(words.welcome, { name });
  // A user code (TM-0010) never breaks at its hyphen on a narrow screen.
  const at = title.lastIndexOf(name);
  return (
    <>
      <PageTitle>
        {at < 0 ? (
          title
        ) : (
          <>
            {title.slice(0, at)}
            <span className="whitespace-nowrap">{name}</span>
            {title.slice(at + name.length)}
          </>
        )}
      </PageTitle>
      <TaskDashboard board={board} leadingCard={(count) => <OngoingProjectsCard to={words.projects} count={count} loadScreen={loadProjects} />} />
    </>
  );
}
