import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AuthLayout } from '../../components/layouts/auth-layout';
import { SignupForm } from '../../features/auth/components/signup-form';

export function SignupPage() {
  const { t } = useTranslation();
  return (
    <AuthLayout
      title={t('signup.title')}
      subtitle={
        <>
          <p>{t('signup.subtitle')}</p>
          <p>
            {t('signup.haveAccount')}{' '}
            <Link to="/company-selection" className="font-semibold text-brand-700 hover:underline">
              {t('signup.logIn')}
            </Link>
          </p>
        </>
      }
    >
      <SignupForm />
    </AuthLayout>
  );
}
