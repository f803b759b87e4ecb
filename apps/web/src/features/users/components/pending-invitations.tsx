import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Invitation } from '@siteboard/shared';
import { Alert, RetryAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { MailFailureReason } from '../../../components/ui/mail-failure';
import { PersonText } from '../../../components/ui/person-text';
import { actionsCellClass, cellClass, Table, wrapCellClass } from '../../../components/ui/table';
import { useFailureMessage, useQueryFailure } from '../../../lib/failure-message';
import { formatDateTime } from '../../../lib/format';
import { useInvitations } from '../api/get-invitations';
import { useResendInvitation } from '../api/resend-invitation';
import { useRevokeInvitation } from '../api/revoke-invitation';

type Feedback = { tone: 'success' | 'error'; text: string } | null;

/** Where the row's latest mail is, as the server knows it: waiting, retried, accepted by the mail server, or given up and why. */
function Delivery({ invitation }: { invitation: Invitation }) {
  const { t } = useTranslation();
  const { delivery } = invitation;
  if (!delivery) return null;
  const at = delivery.at && (
    <time dateTime={delivery.at} className="whitespace-nowrap font-normal text-slate-600">
      {formatDateTime(delivery.at)}
    </time>
  );
  if (delivery.state === 'undelivered') {
    return (
      <div className="mt-2 space-y-1.5 text-sm font-normal">
        <p className="font-semibold text-red-800">
          {t('invitations.undelivered')} {at}
        </p>
        <MailFailureReason error={delivery.error ?? ''} />
        <p className="text-slate-600">{t('invitations.undeliveredHint')}</p>
      </div>
    );
  }
  if (delivery.state === 'sent') {
    return (
      <p className="mt-1 text-sm font-normal text-green-800">
        {t('invitations.delivery.sent')} {at}
      </p>
    );
  }
  if (delivery.error === null) return <p className="mt-1 text-sm font-normal text-slate-600">{t('invitations.delivery.sending')}</p>;
  return (
    <div className="mt-2 space-y-1.5 text-sm font-normal">
      <p className="font-semibold text-amber-800">
        {t('invitations.delivery.retrying')}{' '}
        {at ? (
          <>
            {t('invitations.delivery.nextAttempt')} {at}
          </>
        ) : (
          t('invitations.delivery.tryingNow')
        )}
      </p>
      <MailFailureReason error={delivery.error} />
    </div>
  );
}

/** Invitations not yet accepted or revoked: who, where their mail is, as what, until when (the reader's time), with Resend and Revoke. */
export function PendingInvitations() {
  const { t } = useTranslation();
  const invitations = useInvitations();
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const failureMessage = useFailureMessage();
  const [feedback, setFeedback] = useState<Feedback>(null);
  const loadFailure = useQueryFailure(invitations.error, { other: 'invitations.loadFailed' });

  const act = async (run: () => Promise<unknown>, done: string, failed: string) => {
    setFeedback(null);
    try {
      await run();
      setFeedback({ tone: 'success', text: done });
    } catch (error) {
      // Another admin revoked or the person accepted meanwhile: the list reloads without the row.
      setFeedback({ tone: 'error', text: failureMessage(error, { notFound: 'invitations.gone', other: failed }) });
    }
  };

  if (loadFailure) {
    return (
      <RetryAlert onRetry={() => void invitations.refetch()} retryLabel={t('account.retry')}>
        {loadFailure}
      </RetryAlert>
    );
  }
  if (!invitations.data) return <p className="text-sm text-slate-600" role="status">{t('app.loading')}</p>;
  return (
    <>
      {feedback && <Alert tone={feedback.tone}>{feedback.text}</Alert>}
      <Table
        stackOnPhone
        label={t('invitations.pending')}
        columns={[t('admin.users.email'), t('admin.users.role'), t('invitations.expires'), <span className="sr-only">{t('admin.actions')}</span>]}
        isEmpty={invitations.data.length === 0}
        empty={t('invitations.none')}
      >
        {invitations.data.map((invitation: Invitation) => (
          <tr key={invitation.id} className="bg-white">
            <th scope="row" className={`${wrapCellClass} font-medium text-ink`}>
              <PersonText person={invitation} />
              <Delivery invitation={invitation} />
            </th>
            <td data-label={t('admin.users.role')} className={wrapCellClass}>{t(`role.${invitation.role}`)}</td>
            <td data-label={t('invitations.expires')} className={cellClass}>
              <time dateTime={invitation.expires_at}>{formatDateTime(invitation.expires_at)}</time>
            </td>
            <td className={actionsCellClass}>
              <div className="flex flex-wrap gap-1.5">
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={resend.isPending && resend.variables === invitation.id}
                  aria-label={t('invitations.resendSubject', { email: invitation.email })}
                  onClick={() => void act(() => resend.mutateAsync(invitation.id), t('invitations.resent', { email: invitation.email }), 'invitations.resendFailed')}
                >
                  {t('invitations.resend')}
                </Button>
                <ConfirmDialog
                  trigger={
                    <Button variant="danger" size="sm" disabled={revoke.isPending && revoke.variables === invitation.id} aria-label={t('invitations.revokeSubject', { email: invitation.email })}>
                      {t('invitations.revoke')}
                    </Button>
                  }
                  title={t('invitations.revokeTitle')}
                  description={t('invitations.revokeDescription', { email: invitation.email })}
                  confirmLabel={t('invitations.revoke')}
                  cancelLabel={t('action.cancel')}
                  onConfirm={() => void act(() => revoke.mutateAsync(invitation.id), t('invitations.revoked', { email: invitation.email }), 'invitations.revokeFailed')}
                />
              </div>
            </td>
          </tr>
        ))}
      </Table>
    </>
  );
}
