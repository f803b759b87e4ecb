import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import { AuthLayout, AuthSwitch } from '../../components/layouts/auth-layout';
import { RedirectSignedIn } from '../../components/layouts/redirect-signed-in';
import { Alert } from '../../components/ui/alert';
import { buttonClasses } from '../../components/ui/button';
import { useLoginCompany } from '../../features/auth/api/get-login-company';
import { ForgotPasswordForm } from '../../features/auth/components/forgot-password-form';
import { LoginForm } from '../../features/auth/components/login-form';
import { useEmailStatus } from '../../lib/email-status';
import { FALLBACK_COMPANY_ID, storage, type LoginState } from '../../lib/storage';

export function LoginPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  // Spec §5: the query's company, else the stored one, else "1".
  const companyId = params.get('companyId') || storage.companyId || FALLBACK_COMPANY_ID;
  const { companyName: fromState, email, role, ended, returnTo } = (useLocation().state as LoginState | null) ?? {};
  // After a sign-out or a reload no step brought the name: the one this device kept for the company.
  const companyName = fromState ?? storage.companyNameOf(companyId);
  const { unknown } = useLoginCompany(companyId);
  // The public answer of GET /api/email/: a reset link can only be offered by a server that sends mail.
  const mailConfigured = useEmailStatus().data?.configured === true;
  const [forgot, setForgot] = useState(false);

  return (
    <RedirectSignedIn>
      {unknown ? (
        // An old or mistyped link: no form that cannot succeed, and the way back to the company step.
        <AuthLayout title={t('login.title')}>
          <Alert tone="error">{t('login.unknownCompany', { id: companyId.slice(0, 24) })}</Alert>
          <Link to="/company-selection" className={buttonClasses('primary', 'mt-4 w-full')}>
            {t('login.unknownCompanyAction')}
          </Link>
        </AuthLayout>
      ) : (
        <AuthLayout
          title={t(forgot ? 'forgot.title' : 'login.title')}
          subtitle={
            <>
              {companyName && <p>{t('login.company', { name: companyName })}</p>}
              <AuthSwitch question={t('login.otherCompany')} to="/company-selection" action={t('login.chooseCompany')} />
            </>
          }
        >
          {ended && (
            <div className="mb-4">
              <Alert tone="info">{t(ended === 'elsewhere' ? 'session.endedElsewhere' : 'session.expired')}</Alert>
            </div>
          )}
          {params.get('created') && (
            <div className="mb-4">
              <Alert tone="success">{t('login.companyCreated')}</Alert>
            </div>
          )}
          {forgot ? (
            <>
              <ForgotPasswordForm companyId={companyId} email={email} />
              <p className="mt-4 text-center text-sm">
                <button type="button" className="font-medium text-brand-700 underline" onClick={() => setForgot(false)}>
                  {t('forgot.back')}
                </button>
              </p>
            </>
          ) : (
            <>
              <LoginForm companyId={companyId} known={email ? { email, role: role ?? 'admin' } : undefined} returnTo={returnTo} />
              {mailConfigured ? (
                <p className="mt-4 text-center text-sm">
                  <button type="button" className="font-medium text-brand-700 underline" onClick={() => setForgot(true)}>
                    {t('forgot.link')}
                  </button>
                </p>
              ) : (
                <p className="mt-4 text-center text-sm text-slate-600">{t('account.forgotPassword')}</p>
              )}
            </>
          )}
        </AuthLayout>
      )}
    </RedirectSignedIn>
  );
}
