import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AuthLayout } from '../../components/layouts/auth-layout';
import { ResetPasswordForm } from '../../features/auth/components/reset-password-form';

export function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  return (
    <AuthLayout title={t('reset.title')}>
      <ResetPasswordForm token={params.get('token') ?? ''} />
    </AuthLayout>
  );
}
