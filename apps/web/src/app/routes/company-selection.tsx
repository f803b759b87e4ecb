import { useTranslation } from 'react-i18next';
import { AuthLayout } from '../../components/layouts/auth-layout';
import { RedirectSignedIn } from '../../components/layouts/redirect-signed-in';
import { CompanySelectionForm } from '../../features/auth/components/company-selection-form';

export function CompanySelectionPage() {
  const { t } = useTranslation();
  return (
    <RedirectSignedIn>
      <AuthLayout title={t('companySelection.title')}>
        <CompanySelectionForm />
      </AuthLayout>
    </RedirectSignedIn>
  );
}
