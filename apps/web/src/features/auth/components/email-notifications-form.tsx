import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EMAIL_NOTIFICATIONS, type EmailNotifications, type Profile } from '@siteboard/shared';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { useFailureMessage } from '../../../lib/failure-message';
import { useUpdateEmailNotifications } from '../api/update-email-notifications';

/** None, the daily digest (the default) or each notification as it happens; saved with PATCH /api/profile/. */
export function EmailNotificationsForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const update = useUpdateEmailNotifications();
  const failureMessage = useFailureMessage();
  const [choice, setChoice] = useState<EmailNotifications>(profile.email_notifications);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setSaved(false);
    try {
      await update.mutateAsync(choice);
      setSaved(true);
    } catch (failed) {
      setFailure(failureMessage(failed, { other: 'emailNotifications.failed' }));
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-4">
      {failure && <Alert tone="error">{failure}</Alert>}
      {saved && <Alert tone="success">{t('emailNotifications.saved')}</Alert>}
      <fieldset className="space-y-3">
        <legend className="sr-only">{t('emailNotifications.menu')}</legend>
        {EMAIL_NOTIFICATIONS.map((value) => (
          <label key={value} className="flex items-start gap-3 text-sm text-ink">
            <input
              type="radio"
              name="email_notifications"
              value={value}
              className="mt-0.5 h-4 w-4 border-slate-300 text-brand-600 focus:ring-brand-600"
              checked={choice === value}
              onChange={() => setChoice(value)}
            />
            <span>
              <span className="block font-medium">{t(`emailNotifications.${value}`)}</span>
              <span className="block text-slate-600">{t(`emailNotifications.${value}Hint`)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <Button type="submit" className="w-full" disabled={update.isPending}>
        {t('emailNotifications.save')}
      </Button>
    </form>
  );
}
