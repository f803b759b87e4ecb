import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';
import { useProjects } from '../../../features/projects/api/get-projects';
import { CreateMajorTaskForm } from '../../../features/tasks/components/create-major-task-form';
import { useUsers } from '../../../features/users/api/get-users';
import { useAuth } from '../../../lib/auth';

export function ManagerCreateTaskPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const projects = useProjects();
  const users = useUsers();
  return (
    <>
      <PageTitle>{t('manager.createTaskTitle')}</PageTitle>
      <CreateMajorTaskForm projects={projects.data} users={users.data} companyId={user?.company_id} />
    </>
  );
}
