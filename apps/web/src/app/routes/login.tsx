import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import { AuthLayout } from '../../components/layouts/auth-layout';
import { RedirectSignedIn } from '../../components/layouts/redirect-signed-in';
import { Alert } from '../../components/ui/alert';
import { LoginForm } from '../../features/auth/components/login-form';
import { FALLBACK_COMPANY_ID, storage, type LoginState } from '../../lib/storage';

export function LoginPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  // Spec §5: the query's company, else the stored one, else "1".
  const companyId = params.get('companyId') || storage.companyId || FALLBACK_COMPANY_ID;
  const { companyName, email } = (useLocation().state as LoginState | null) ?? {};

  return (
    <RedirectSignedIn>
      <AuthLayout
        title={t('login.title')}
        subtitle={
          <>
            {companyName && <p>{t('login.company', { name: companyName })}</p>}
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
        <LoginForm companyId={companyId} newAdminEmail={email} />
        <p className="mt-4 text-center text-sm text-slate-600">{t('account.forgotPassword')}</p>
      </AuthLayout>
    </RedirectSignedIn>
  );
}
