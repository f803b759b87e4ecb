import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';
import { useAuth } from '../../../lib/auth';

function useGreetingName() {
  const { t } = useTranslation();
  const { user } = useAuth();
  return user?.code || t('teamMember.fallbackName');
}

export function TeamMemberDashboardPage() {
  const { t } = useTranslation();
  return <PageTitle>{t('teamMember.welcome', { name: useGreetingName() })}</PageTitle>;
}

export function TeamMemberProjectsPage() {
  const { t } = useTranslation();
  return <PageTitle>{t('teamMember.projectsTitle', { name: useGreetingName() })}</PageTitle>;
}

export function TeamMemberCreateTaskPage() {
  const { t } = useTranslation();
  return <PageTitle>{t('teamMember.createTaskTitle')}</PageTitle>;
}

export function TeamMemberMyTasksPage() {
  const { t } = useTranslation();
  return <PageTitle>{t('teamMember.myTasksTitle')}</PageTitle>;
}
