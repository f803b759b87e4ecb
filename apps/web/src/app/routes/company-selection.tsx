import { useTranslation } from 'react-i18next';
import { AuthLayout } from '../../components/layouts/auth-layout';
import { CompanySelectionForm } from '../../features/auth/components/company-selection-form';

export function CompanySelectionPage() {
  const { t } = useTranslation();
  return (
    <AuthLayout title={t('companySelection.title')}>
      <CompanySelectionForm />
    </AuthLayout>
  );
}
