import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageTitle } from '../../../components/ui/page-title';

export function AdminCreateUserPage() {
  const { t } = useTranslation();
  return (
    <PageTitle aside={<Link to="/admin" className="text-sm font-semibold text-brand-700 hover:underline">{t('admin.back')}</Link>}>
      {t('admin.createUserTitle')}
    </PageTitle>
  );
}
