import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Profile } from '@siteboard/shared';
import { canonicalTimeZone, deviceClockZone, deviceTimeZone, timeZoneField, zoneLabel } from '@siteboard/shared';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TimeZonePicker } from '../../../components/ui/time-zone-picker';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useFailureMessage } from '../../../lib/failure-message';
import { useCompanySettings } from '../../../lib/company-settings';
import { storage } from '../../../lib/storage';
import { useUpdateTimeZone } from '../api/update-time-zone';

/**
 * The user's own time zone, or the company's: every time they are shown, their "today" and their
 * reminders follow it. Saving sends `timezone` (null: the company's again). The device's zone, when
 * it is not the one in use, is one tap away.
 */
export function TimeZoneForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const company = useCompanySettings();
  const update = useUpdateTimeZone();
  const { refreshProfile, user } = useAuth();
  const failureMessage = useFailureMessage();
  const [useCompany, setUseCompany] = useState(profile.timezone === null);
  // Someone choosing a zone of their own is most often where their phone is: it is offered first.
  const [zone, setZone] = useState(profile.timezone ?? deviceTimeZone());
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const companyZone = company.data?.timezone ?? (profile.timezone === null ? profile.effective_timezone : undefined);
  const device = deviceTimeZone();
  const inUse = update.data?.effective_timezone ?? profile.effective_timezone;
  const offerDevice = device !== (canonicalTimeZone(inUse) ?? inUse);

  const save = async (timezone: string | null) => {
    setFailure(null);
    setSaved(false);
    setError(undefined);
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
      // The company's clock chosen here is an answer to the notice that offers this device's (zone-notice.tsx).
      if (timezone === null && user) storage.keepZone(user.id, deviceClockZone());
      else if (timezone !== null) {
        setUseCompany(false);
        setZone(timezone);
      }
      // Every time on screen moves to the new clock; it is saved either way.
      void refreshProfile().catch(() => {});
    } catch (failed) {
      const fieldMessage = failed instanceof ApiError ? failed.errors?.timezone?.[0] : undefined;
      if (fieldMessage) setError(fieldMessage);
      else setFailure(failureMessage(failed, { other: 'timeZone.failed' }));
    }
  };

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    void save(useCompany ? null : zone);
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {failure && <Alert tone="error">{failure}</Alert>}
      {/* The zone as the dialog names it everywhere else ("Berlin (UTC+01:00)"), not its IANA name. */}
      {saved && update.data && <Alert tone="success">{t('timeZone.saved', { zone: zoneLabel(update.data.effective_timezone) })}</Alert>}
      {offerDevice && (
        <Button type="button" variant="secondary" className="w-full" disabled={update.isPending} onClick={() => void save(device)}>
          {t('timeZone.useDevice', { zone: zoneLabel(device) })}
        </Button>
      )}
      <label className="flex items-start gap-3 text-sm text-ink">
        <input type="checkbox" className="mt-0.5 h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-600" checked={useCompany} onChange={(event) => setUseCompany(event.target.checked)} />
        <span>{companyZone ? t('timeZone.useCompany', { zone: zoneLabel(companyZone) }) : t('timeZone.useCompanyUnknown')}</span>
      </label>
      {!useCompany && <TimeZonePicker label={t('timeZone.label')} value={zone} onChange={setZone} error={error} listInFlow />}
      <Button type="submit" className="w-full" disabled={update.isPending}>
        {t('timeZone.save')}
      </Button>
    </form>
  );
}
