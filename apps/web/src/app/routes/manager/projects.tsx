import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';
import { CompanyProjects } from '../../company-projects';

export function ManagerProjectsPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t('manager.projectsTitle')}</PageTitle>
      <CompanyProjects />
    </>
  );
}
