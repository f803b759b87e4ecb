import * as Dialog from '@radix-ui/react-dialog';
import { CALENDAR_FEED_DAYS_AHEAD, CALENDAR_FEED_DAYS_BACK, CALENDAR_FEED_MAX_EVENTS, can, type CalendarFeed } from '@siteboard/shared';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { Button, buttonClasses } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Icon } from '../../../components/ui/icons';
import { useAuth } from '../../../lib/auth';
import { formatNumber } from '../../../lib/format';
import { useFailureMessage, useQueryFailure } from '../../../lib/failure-message';
import { useDisableCalendarFeed } from '../api/disable-calendar-feed';
import { useEnableCalendarFeed } from '../api/enable-calendar-feed';
import { useCalendarFeed } from '../api/get-calendar-feed';
import { useUpdateCalendarFeed } from '../api/update-calendar-feed';

/**
 * The header's calendar button and its panel: turn the personal calendar feed on, copy its
 * address (or hand it to the calendar app), give it a new address, turn it off; a manager also
 * chooses whether the approvals waiting for them are in it.
 */
export function CalendarFeedButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button
          type="button"
          className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full text-slate-600 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
          aria-label={t('calendarFeed.open')}
        >
          <Icon name="calendar" />
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/40" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 max-h-[calc(100vh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 space-y-4 overflow-y-auto rounded-2xl bg-white p-5 shadow-xl">
          <Dialog.Title className="text-lg font-semibold text-ink">{t('calendarFeed.title')}</Dialog.Title>
          <Dialog.Description className="text-sm text-slate-600">
            {t('calendarFeed.description')} {t('calendarFeed.window', { back: CALENDAR_FEED_DAYS_BACK, ahead: CALENDAR_FEED_DAYS_AHEAD })}{' '}
            {t('calendarFeed.cap', { max: formatNumber(CALENDAR_FEED_MAX_EVENTS) })}
          </Dialog.Description>
          {open && <CalendarFeedPanel />}
          <div className="flex justify-end">
            <Dialog.Close asChild>
              <Button variant="secondary">{t('calendarFeed.close')}</Button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function CalendarFeedPanel() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const failureMessage = useFailureMessage();
  const feed = useCalendarFeed({ enabled: true });
  const loadFailure = useQueryFailure(feed.error, { other: 'calendarFeed.loadFailed' });
  const enable = useEnableCalendarFeed();
  const update = useUpdateCalendarFeed();
  const disable = useDisableCalendarFeed();
  const [failure, setFailure] = useState<string | null>(null);
  // Before the feed exists, the manager's choice waits to go with turning it on.
  const [withApprovals, setWithApprovals] = useState(false);
  const mayIncludeApprovals = user ? can(user.role, 'calendar:team-approvals') : false;
  const busy = enable.isPending || update.isPending || disable.isPending;
  const onError = (error: unknown) => setFailure(failureMessage(error, { other: 'calendarFeed.failed' }));
  const run = (action: () => void) => {
    setFailure(null);
    action();
  };

  if (feed.isPending) return <p className="text-sm text-slate-600" role="status">{t('app.loading')}</p>;
  if (loadFailure) return <Alert tone="error">{loadFailure}</Alert>;

  const current = feed.data ?? null;
  const approvals = mayIncludeApprovals && (
    <label className="flex items-start gap-2 text-sm text-slate-700">
      <input
        type="checkbox"
        className="mt-0.5 h-4 w-4 rounded border-slate-300 text-brand-600"
        checked={current ? current.include_team_approvals : withApprovals}
        disabled={busy}
        onChange={(event) => {
          const checked = event.target.checked;
          if (current) run(() => update.mutate({ include_team_approvals: checked }, { onError }));
          else setWithApprovals(checked);
        }}
      />
      {t('calendarFeed.includeApprovals')}
    </label>
  );

  return (
    <div className="space-y-4" aria-busy={busy}>
      {failure && <Alert tone="error">{failure}</Alert>}
      {current ? (
        <FeedAddress feed={current} />
      ) : (
        <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700 ring-1 ring-slate-200">{t('calendarFeed.off')}</p>
      )}
      {approvals}
      <div className="flex flex-wrap gap-2">
        {current ? (
          // Both break the address calendars are subscribed to: each asks first.
          [
            { key: 'regenerate', act: () => enable.mutate({}, { onError }) },
            { key: 'turnOff', act: () => disable.mutate(undefined, { onError }) },
          ].map(({ key, act }) => (
            <ConfirmDialog
              key={key}
              trigger={
                <Button variant="secondary" disabled={busy}>
                  {t(`calendarFeed.${key}`)}
                </Button>
              }
              title={t(`calendarFeed.${key}Title`)}
              description={t(`calendarFeed.${key}Description`)}
              confirmLabel={t(`calendarFeed.${key}Confirm`)}
              cancelLabel={t('calendarFeed.cancel')}
              onConfirm={() => run(act)}
            />
          ))
        ) : (
          <Button disabled={busy} onClick={() => run(() => enable.mutate(mayIncludeApprovals ? { include_team_approvals: withApprovals } : {}, { onError }))}>
            {t('calendarFeed.turnOn')}
          </Button>
        )}
      </div>
    </div>
  );
}

/** The feed's address to copy, and a link that hands it to the device's calendar app. */
function FeedAddress({ feed }: { feed: CalendarFeed }) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'copied' | 'selected' | null>(null);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(feed.url);
      setCopied('copied');
    } catch {
      // No clipboard outside a secure context: the address is selected for the person to copy.
      input.current?.select();
      setCopied('selected');
    }
  };

  return (
    <div className="space-y-2">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {t('calendarFeed.address')}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          ref={input}
          id={id}
          readOnly
          value={feed.url}
          onFocus={(event) => event.target.select()}
          aria-describedby={`${id}-warning`}
          className="block w-full min-w-0 rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs text-slate-700"
        />
        <Button variant="secondary" className="shrink-0" onClick={() => void copy()}>
          {t('calendarFeed.copy')}
        </Button>
      </div>
      <p role="status" className="text-xs text-green-800 empty:hidden">
        {copied && t(copied === 'copied' ? 'calendarFeed.copied' : 'calendarFeed.selected')}
      </p>
      <p id={`${id}-warning`} className="text-xs text-slate-600">
        {t('calendarFeed.secret')}
      </p>
      <a href={feed.url.replace(/^https?:/, 'webcal:')} className={buttonClasses('primary', 'w-full sm:w-auto')}>
        <Icon name="calendar" className="h-4 w-4" />
        {t('calendarFeed.subscribe')}
      </a>
    </div>
  );
}
