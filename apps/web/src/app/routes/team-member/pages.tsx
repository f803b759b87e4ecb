import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';
import { searchProjectMajorTasksQuery } from '../../../features/projects/api/get-project-major-tasks';
import { searchOpenProjectsQuery } from '../../../features/projects/api/get-projects';
import { CreateSubtaskPicker } from '../../../features/tasks/components/create-subtask-picker';
import { MyTaskLists } from '../../../features/tasks/components/my-task-lists';
import { searchPeopleQuery } from '../../../features/users/api/get-users';
import { useAuth } from '../../../lib/auth';
import { CrewDailyLogPage } from '../../../features/daily-logs/components/daily-log-pages';
import { CompanyProjects } from '../../company-projects';

function useGreetingName() {
  const { t } = useTranslation();
  const { user } = useAuth();
  return user?.code || t('teamMember.fallbackName');
}

/** The manager's project browser; the team member may add subtasks but not decide on them. */
export function TeamMemberProjectsPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t('teamMember.projectsTitle', { name: useGreetingName() })}</PageTitle>
      <CompanyProjects />
    </>
  );
}

export function TeamMemberCreateTaskPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t('teamMember.createTaskTitle')}</PageTitle>
      <CreateSubtaskPicker findProjects={searchOpenProjectsQuery} findMajorTasks={searchProjectMajorTasksQuery} findAssignees={searchPeopleQuery} />
    </>
  );
}

export function TeamMemberMyTasksPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t('teamMember.myTasksTitle')}</PageTitle>
      <MyTaskLists showApprovals={false} />
    </>
  );
}

/** The crew's daily log on their phone: their own hours, notes and photos of the day (issue 45). */
export function TeamMemberDailyLogPage() {
  return <CrewDailyLogPage />;
}
