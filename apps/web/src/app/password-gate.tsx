import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthLayout } from '../components/layouts/auth-layout';
import { Button } from '../components/ui/button';
import { ChangePasswordForm } from '../features/auth/components/change-password-form';
import { useAuth } from '../lib/auth';

/**
 * An admin set this user's password: before anything else of their area, they choose their own
 * (the profile says `must_change_password` until they do).
 */
export function PasswordGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { user, logout } = useAuth();
  if (!user?.must_change_password) return children;
  return (
    <AuthLayout title={t('account.mustChangeTitle')} subtitle={<p>{t('account.mustChangeBody')}</p>}>
      <ChangePasswordForm />
      <Button variant="ghost" className="mt-4 w-full" onClick={logout}>
        {t('shell.logout')}
      </Button>
    </AuthLayout>
  );
}
