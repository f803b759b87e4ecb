import { useTranslation } from 'react-i18next';
import { AuthLayout } from '../components/layouts/auth-layout';
import { Button } from '../components/ui/button';
import { ChangePasswordForm } from '../features/auth/components/change-password-form';
import { useAuth } from '../lib/auth';

/**
 * The password gate's screen: the new password first, or sign out. Right after signing in with the
 * password to replace, it is not asked for again (the sign-in's proof stands in for it). Its one
 * task is the form: its first field has the focus on arrival, as on the other sign-in cards (the
 * sign-in's button went with the sign-in page, and focus would otherwise fall to the page's top).
 */
export default function MustChangePassword({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const { logout, passwordProof } = useAuth();
  return (
    <AuthLayout title={t('account.mustChangeTitle')} subtitle={<p>{t('account.mustChangeBody')}</p>}>
      <ChangePasswordForm onDone={onDone} proof={passwordProof} autoFocus />
      <Button variant="ghost" className="mt-4 w-full" onClick={logout}>
        {t('shell.logout')}
      </Button>
    </AuthLayout>
  );
}
