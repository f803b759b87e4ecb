import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Profile } from '@siteboard/shared';
import { deviceTimeZone, timeZoneField } from '@siteboard/shared';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TimeZonePicker } from '../../../components/ui/time-zone-picker';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useFailureMessage } from '../../../lib/failure-message';
import { useCompanySettings } from '../../../lib/company-settings';
import { useUpdateTimeZone } from '../api/update-time-zone';

/**
 * The user's own time zone, or the company's: their "today" and their reminders follow it.
 * Saving sends `timezone` (null: the company's again).
 */
export function TimeZoneForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const company = useCompanySettings();
  const update = useUpdateTimeZone();
  const { refreshProfile } = useAuth();
  const failureMessage = useFailureMessage();
  const [useCompany, setUseCompany] = useState(profile.timezone === null);
  // Someone choosing a zone of their own is most often where their phone is: it is offered first.
  const [zone, setZone] = useState(profile.timezone ?? deviceTimeZone());
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const companyZone = company.data?.timezone ?? (profile.timezone === null ? profile.effective_timezone : undefined);

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setSaved(false);
    setError(undefined);
    const timezone = useCompany ? null : zone;
    if (timezone !== null) {
      const checked = timeZoneField.safeParse(timezone);
      if (!checked.success) {
        setError(checked.error.issues[0]?.message);
        return;
      }
    }
    try {
      await update.mutateAsync(timezone);
      setSaved(true);
      // Every time on screen moves to the new clock; it is saved either way.
      void refreshProfile().catch(() => {});
    } catch (failed) {
      const fieldMessage = failed instanceof ApiError ? failed.errors?.timezone?.[0] : undefined;
      if (fieldMessage) setError(fieldMessage);
      else setFailure(failureMessage(failed, { other: 'timeZone.failed' }));
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-4">
      {failure && <Alert tone="error">{failure}</Alert>}
      {saved && <Alert tone="success">{t('timeZone.saved', { zone: update.data?.effective_timezone ?? '' })}</Alert>}
      <label className="flex items-start gap-3 text-sm text-ink">
        <input type="checkbox" className="mt-0.5 h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-600" checked={useCompany} onChange={(event) => setUseCompany(event.target.checked)} />
        <span>{companyZone ? t('timeZone.useCompany', { zone: companyZone }) : t('timeZone.useCompanyUnknown')}</span>
      </label>
      {!useCompany && <TimeZonePicker label={t('timeZone.label')} value={zone} onChange={setZone} error={error} listInFlow />}
      <Button type="submit" className="w-full" disabled={update.isPending}>
        {t('timeZone.save')}
      </Button>
    </form>
  );
}
