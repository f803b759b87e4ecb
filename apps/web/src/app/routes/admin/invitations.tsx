import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert, RetryAlert } from '../../../components/ui/alert';
import { PageTitle } from '../../../components/ui/page-title';
import { SectionCard } from '../../../components/ui/section-card';
import { InviteForm } from '../../../features/users/components/invite-form';
import { PendingInvitations } from '../../../features/users/components/pending-invitations';
import { useEmailStatus } from '../../../lib/email-status';
import { useQueryFailure } from '../../../lib/failure-message';

/** The admin's invitations by e-mail (issue 44, decision record 078): invite, then see, resend or revoke what is pending. */
export function AdminInvitationsPage() {
  const { t } = useTranslation();
  const status = useEmailStatus();
  const failure = useQueryFailure(status.error, { other: 'invitations.statusFailed' });
  return (
    <>
      <PageTitle aside={<Link to="/admin" className="text-sm font-semibold text-brand-700 hover:underline">{t('admin.back')}</Link>}>
        {t('invitations.title')}
      </PageTitle>
      <div className="max-w-4xl space-y-6">
        {failure && (
          <RetryAlert onRetry={() => void status.refetch()} retryLabel={t('account.retry')}>
            {failure}
          </RetryAlert>
        )}
        {status.isPending && <p className="text-sm text-slate-600" role="status">{t('app.loading')}</p>}
        {status.data?.configured === false && (
          <Alert tone="info">
            {t('invitations.notConfigured')}{' '}
            <Link to="/admin/create-user" className="font-semibold underline">
              {t('admin.createUser')}
            </Link>
          </Alert>
        )}
        {status.data?.configured && (
          <>
            <SectionCard id="invite" title={t('invitations.invite')}>
              <p className="text-sm text-slate-600">{t('invitations.intro')}</p>
              <InviteForm />
            </SectionCard>
            <SectionCard id="pending-invitations" title={t('invitations.pending')}>
              <PendingInvitations />
            </SectionCard>
          </>
        )}
      </div>
    </>
  );
}
