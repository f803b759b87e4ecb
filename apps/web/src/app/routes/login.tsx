import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { AuthLayout } from '../../components/layouts/auth-layout';
import { Alert } from '../../components/ui/alert';
import { useCompanies } from '../../features/auth/api/get-companies';
import { LoginForm } from '../../features/auth/components/login-form';
import { FALLBACK_COMPANY_ID, storage } from '../../lib/storage';

export function LoginPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  // Spec §5: the query's company, else the stored one, else "1".
  const companyId = params.get('companyId') || storage.companyId || FALLBACK_COMPANY_ID;
  const company = useCompanies().data?.find((candidate) => String(candidate.id) === companyId);

  return (
    <AuthLayout
      title={t('login.title')}
      subtitle={
        <>
          {company && <p>{t('login.company', { name: company.name })}</p>}
          <p>
            {t('login.otherCompany')}{' '}
            <Link to="/company-selection" className="font-semibold text-brand-700 hover:underline">
              {t('login.chooseCompany')}
            </Link>
          </p>
        </>
      }
    >
      {params.get('created') && (
        <div className="mb-4">
          <Alert tone="success">{t('login.companyCreated')}</Alert>
        </div>
      )}
      <LoginForm companyId={companyId} />
    </AuthLayout>
  );
}
