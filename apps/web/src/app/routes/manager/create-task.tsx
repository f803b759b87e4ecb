import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';
import { searchOpenProjectsQuery } from '../../../features/projects/api/get-projects';
import { CreateMajorTaskForm } from '../../../features/tasks/components/create-major-task-form';
import { searchPeopleQuery } from '../../../features/users/api/get-users';

export function ManagerCreateTaskPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t('manager.createTaskTitle')}</PageTitle>
      <CreateMajorTaskForm findProjects={searchOpenProjectsQuery} findAssignees={searchPeopleQuery} />
    </>
  );
}
