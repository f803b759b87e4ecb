import { useTranslation } from 'react-i18next';
import { AuthLayout, AuthSwitch } from '../../components/layouts/auth-layout';
import { SignupForm } from '../../features/auth/components/signup-form';

export function SignupPage() {
  const { t } = useTranslation();
  return (
    <AuthLayout
      title={t('signup.title')}
      subtitle={
        <>
          <p>{t('signup.subtitle')}</p>
          <AuthSwitch question={t('signup.haveAccount')} to="/company-selection" action={t('signup.logIn')} />
        </>
      }
    >
      <SignupForm />
    </AuthLayout>
  );
}
