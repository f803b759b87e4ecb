import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AuthLayout } from '../../components/layouts/auth-layout';
import { AcceptInvitationForm } from '../../features/auth/components/accept-invitation-form';

export function AcceptInvitationPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  return (
    <AuthLayout title={t('invite.title')}>
      <AcceptInvitationForm token={params.get('token') ?? ''} />
    </AuthLayout>
  );
}
