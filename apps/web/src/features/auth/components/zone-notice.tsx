import { deviceClockZone, zoneLabel, zoneOffsetMinutes } from '@siteboard/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { useAuth } from '../../../lib/auth';
import { useFailureMessage } from '../../../lib/failure-message';
import { storage } from '../../../lib/storage';
import { updateTimeZone } from '../api/update-time-zone';

/** What the profile says of the zone: the person's own (null: the company's) and the one in use. */
function zonesOf(user: unknown): { own: string | null | undefined; effective: string | undefined } {
  const { timezone, effective_timezone } = (user ?? {}) as { timezone?: unknown; effective_timezone?: unknown };
  return { own: typeof timezone === 'string' || timezone === null ? timezone : undefined, effective: typeof effective_timezone === 'string' ? effective_timezone : undefined };
}

/**
 * Tells a person once that their times are on the company's clock when their device's clock reads
 * otherwise (a manager in Berlin of a company in UTC), with their device's zone one tap away and
 * "keep" remembered for them on this device (decision record 125). Not a dialog: a card above the
 * page, in its flow, until answered (a card laid over the page would hide its last buttons on a
 * phone); a person with a zone of their own never sees it. The shell draws it with its first paint,
 * from what the signed-in user already holds, so the page never moves down under it afterwards.
 */
export function ZoneNotice() {
  const { t } = useTranslation();
  const { user, refreshProfile } = useAuth();
  const failureMessage = useFailureMessage();
  const [answered, setAnswered] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const device = deviceClockZone();
  const { own, effective } = zonesOf(user);
  if (!user || answered || own !== null || effective === undefined) return null;
  if (zoneOffsetMinutes(effective) === zoneOffsetMinutes(device) || storage.zoneKeptBy(user.id) === device) return null;

  const takeDeviceZone = async () => {
    setSaving(true);
    setFailure(null);
    try {
      await updateTimeZone(device);
      setAnswered(true);
      // Every time on screen moves to the device's clock.
      void refreshProfile().catch(() => {});
    } catch (failed) {
      setFailure(failureMessage(failed, { other: 'timeZone.failed' }));
    } finally {
      setSaving(false);
    }
  };
  const keep = () => {
    storage.keepZone(user.id, device);
    setAnswered(true);
  };

  return (
    <section aria-label={t('zoneNotice.title')} className="mb-4 rounded-xl border border-slate-200 bg-white p-4 text-sm text-ink shadow-sm">
      <p>{t('zoneNotice.text', { company: zoneLabel(effective), device: zoneLabel(device) })}</p>
      {failure && (
        <p role="alert" className="mt-2 text-red-700">
          {failure}
        </p>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        <Button type="button" disabled={saving} onClick={() => void takeDeviceZone()}>
          {t('zoneNotice.useDevice', { zone: zoneLabel(device) })}
        </Button>
        <Button type="button" variant="secondary" disabled={saving} onClick={keep}>
          {t('zoneNotice.keep', { zone: zoneLabel(effective) })}
        </Button>
      </div>
    </section>
  );
}
