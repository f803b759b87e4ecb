import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FailedMail } from '@siteboard/shared';
import { RetryAlert } from '../../../components/ui/alert';
import { MailFailureReason } from '../../../components/ui/mail-failure';
import { PersonText } from '../../../components/ui/person-text';
import { useEmailStatus } from '../../../lib/email-status';
import { useQueryFailure } from '../../../lib/failure-message';
import { formatDateTime } from '../../../lib/format';
import { useFailedMails } from '../api/get-failed-mails';

/** What caused a mail, as the outbox records it (decision record 075); an unknown kind is shown as it is. */
const KINDS: Record<string, string> = {
  invitation: 'failedMails.kind.invitation',
  password_reset: 'failedMails.kind.password_reset',
  digest: 'failedMails.kind.digest',
  notification: 'failedMails.kind.notification',
};

/**
 * The company's e-mail, in its settings: plainly that it is not configured and what that turns
 * off, or the mails that could not be delivered and why (issue 44). `configuredExtra` is what the
 * page adds when mail works (the way to invite people).
 */
export function EmailSettings({ configuredExtra }: { configuredExtra?: ReactNode }) {
  const { t } = useTranslation();
  const status = useEmailStatus();
  const configured = status.data?.configured === true;
  const failed = useFailedMails({ enabled: configured });
  const failure = useQueryFailure(status.error ?? failed.error, { other: 'failedMails.loadFailed' });

  if (failure) {
    return (
      <RetryAlert onRetry={() => void (status.error ? status.refetch() : failed.refetch())} retryLabel={t('account.retry')}>
        {failure}
      </RetryAlert>
    );
  }
  if (!status.data) return <p className="text-sm text-slate-600" role="status">{t('app.loading')}</p>;
  if (!configured) {
    return (
      // A standing fact of the server, not news: no live region, unlike an Alert.
      <div className="space-y-1 rounded-lg border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-800">
        <p className="font-semibold">{t('emailSettings.notConfigured')}</p>
        <p>{t('emailSettings.notConfiguredHides')}</p>
        <p>{t('emailSettings.notConfiguredHow')}</p>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">{t('emailSettings.configured')}</p>
      {configuredExtra}
      <h3 className="text-base font-semibold text-ink">{t('failedMails.title')}</h3>
      {failed.data ? <FailedMailList mails={failed.data} /> : <p className="text-sm text-slate-600" role="status">{t('app.loading')}</p>}
    </div>
  );
}

function FailedMailList({ mails }: { mails: FailedMail[] }) {
  const { t } = useTranslation();
  if (mails.length === 0) return <p className="text-sm text-slate-600">{t('failedMails.none')}</p>;
  return (
    <ul className="space-y-3" aria-label={t('failedMails.title')}>
      {mails.map((mail) => (
        <li key={mail.id} className="space-y-2 rounded-xl p-3 text-sm ring-1 ring-slate-200">
          <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
            <span className="min-w-0 font-medium text-ink">
              <PersonText person={{ email: mail.to, full_name: mail.to_name }} />
            </span>
            <time dateTime={mail.failed_at} className="whitespace-nowrap text-xs text-slate-500">
              {formatDateTime(mail.failed_at)}
            </time>
          </div>
          <p className="break-words text-slate-700">
            <span className="font-medium">{KINDS[mail.kind] ? t(KINDS[mail.kind]) : mail.kind}</span> · {mail.subject}
          </p>
          <MailFailureReason error={mail.error} />
          <p className="text-xs text-slate-500">{t('failedMails.attempts', { count: mail.attempts })}</p>
        </li>
      ))}
    </ul>
  );
}
