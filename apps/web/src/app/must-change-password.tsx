import { useTranslation } from 'react-i18next';
import { AuthLayout } from '../components/layouts/auth-layout';
import { Button } from '../components/ui/button';
import { ChangePasswordForm } from '../features/auth/components/change-password-form';
import { useAuth } from '../lib/auth';

/** The password gate's screen: the new password first, or sign out. */
export default function MustChangePassword() {
  const { t } = useTranslation();
  const { logout } = useAuth();
  return (
    <AuthLayout title={t('account.mustChangeTitle')} subtitle={<p>{t('account.mustChangeBody')}</p>}>
      <ChangePasswordForm />
      <Button variant="ghost" className="mt-4 w-full" onClick={logout}>
        {t('shell.logout')}
      </Button>
    </AuthLayout>
  );
}
