import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';
import { MyTaskLists } from '../../../features/tasks/components/my-task-lists';

export function ManagerMyTasksPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t('manager.nav.myTasks')}</PageTitle>
      <MyTaskLists showApprovals />
    </>
  );
}
