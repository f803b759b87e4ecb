import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';
import { useAuth } from '../../../lib/auth';

export function ManagerDashboardPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  return <PageTitle>{t('manager.welcome', { name: user?.code || t('manager.fallbackName') })}</PageTitle>;
}

export function ManagerProjectsPage() {
  const { t } = useTranslation();
  return <PageTitle>{t('manager.projectsTitle')}</PageTitle>;
}

export function ManagerCreateTaskPage() {
  const { t } = useTranslation();
  return <PageTitle>{t('manager.createTaskTitle')}</PageTitle>;
}

export function ManagerMyTasksPage() {
  const { t } = useTranslation();
  return <PageTitle>{t('manager.myTasksTitle')}</PageTitle>;
}

export function TeamPerformancePage() {
  const { t } = useTranslation();
  return <PageTitle>{t('manager.performanceTitle')}</PageTitle>;
}
