import { useTranslation } from 'react-i18next';

/** The SMTP server's reason a mail was given up, as it answered it: the failed-mail list and an invitation's row show it alike. */
export function MailFailureReason({ error }: { error: string }) {
  const { t } = useTranslation();
  return (
    <p className="break-words rounded-lg bg-red-50 px-3 py-2 font-mono text-xs text-red-800">
      <span className="font-sans font-semibold">{t('common.labelled', { label: t('failedMails.reason') })} </span>
      {error || t('failedMails.noReason')}
    </p>
  );
}
