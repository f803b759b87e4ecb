import * as Popover from '@radix-ui/react-popover';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RetryAlert } from '../../../components/ui/alert';
import { Modal } from '../../../components/ui/modal';
import { useAuth } from '../../../lib/auth';
import { onIdle } from '../../../lib/after-paint';
import { getEmailStatusQueryOptions, useEmailStatus } from '../../../lib/email-status';
import { useProfile } from '../api/get-profile';
import { ChangePasswordForm, PasswordChangedToast } from './lazy-change-password-form';

// The zone picker (every IANA zone) loads when its dialog opens, not with every area's first screen.
const TimeZoneForm = lazy(() => import('./time-zone-form').then((module) => ({ default: module.TimeZoneForm })));
// So does the mail choice: its list of choices comes from the shared schemas, which bring zod and the
// zone list; with the menu, every area ran them just after its first paint (decision record 098).
const EmailNotificationsForm = lazy(() => import('./email-notifications-form').then((module) => ({ default: module.EmailNotificationsForm })));
const NameForm = lazy(() => import('./name-form').then((module) => ({ default: module.NameForm })));

type AccountDialog = 'name' | 'password' | 'timeZone' | 'emailNotifications';

/** The menu's items, in order: each opens its dialog. */
const MENU_ITEMS: { dialog: AccountDialog; label: string }[] = [
  { dialog: 'name', label: 'account.nameMenu' },
  { dialog: 'password', label: 'account.changePassword' },
  { dialog: 'timeZone', label: 'timeZone.menu' },
  { dialog: 'emailNotifications', label: 'emailNotifications.menu' },
];

/** The dialogs whose forms start from the profile as the server has it now. */
const PROFILE_DIALOGS = [
  { dialog: 'name', title: 'account.nameMenu', description: 'account.nameDescription', Form: NameForm },
  { dialog: 'timeZone', title: 'timeZone.menu', description: 'timeZone.description', Form: TimeZoneForm },
  { dialog: 'emailNotifications', title: 'emailNotifications.menu', description: 'emailNotifications.description', Form: EmailNotificationsForm },
] as const;

/**
 * The avatar in the header, as the user's menu: "Your name", "Change password", "Time zone" and,
 * when the server sends mail, "E-mail notifications" open their forms in a dialog.
 * Every role has it, in every shell.
 */
export function AccountMenu({ avatar }: { avatar: string }) {
  const { t } = useTranslation();
  const email = useAuth().user?.email;
  const [menuOpen, setMenuOpen] = useState(false);
  const [dialog, setDialog] = useState<AccountDialog | null>(null);
  const [passwordChanged, setPasswordChanged] = useState(false);
  // Asked ahead, not with the area's first load: once the page is idle after it, or sooner when the
  // menu is approached (pointed at, focused, touched), and only with a signal (asked without one, it
  // would wait with nothing). On a weak signal it is there before the menu opens, rather than coming
  // into the open menu late; kept on the device with the other answers, it is there without a signal.
  const queryClient = useQueryClient();
  const approach = useCallback(() => {
    if (navigator.onLine) void queryClient.prefetchQuery(getEmailStatusQueryOptions());
  }, [queryClient]);
  useEffect(() => onIdle(approach), [approach]);
  // Read when a dialog showing it opens, so it starts from what the server has now.
  const profile = useProfile({ enabled: PROFILE_DIALOGS.some((item) => item.dialog === dialog) });
  // A choice of mails a server without SMTP never sends is not offered.
  const mailConfigured = useEmailStatus({ enabled: false }).data?.configured === true;
  const items = MENU_ITEMS.filter((item) => item.dialog !== 'emailNotifications' || mailConfigured);
  const itemClass = 'w-full rounded-lg px-3 py-2 text-left text-sm font-medium text-ink hover:bg-slate-100 focus-visible:bg-slate-100 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600';

  return (
    <>
      <Popover.Root open={menuOpen} onOpenChange={setMenuOpen}>
        <Popover.Trigger
          onPointerEnter={approach}
          onPointerDown={approach}
          onFocus={approach}
          className="flex h-9 min-w-9 items-center justify-center rounded-full bg-brand-600 px-2 text-xs font-bold text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ink"
          aria-label={t('account.menu')}
        >
          <span aria-hidden>{avatar}</span>
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content align="end" sideOffset={8} className="z-40 w-60 rounded-xl border border-slate-200 bg-white p-2 shadow-lg">
            {email && <p className="truncate px-3 py-2 text-xs text-slate-500">{email}</p>}
            {items.map(({ dialog: item, label }) => (
              <button
                key={item}
                type="button"
                className={itemClass}
                onClick={() => {
                  setMenuOpen(false);
                  setDialog(item);
                }}
              >
                {t(label)}
              </button>
            ))}
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      <Modal open={dialog === 'password'} onOpenChange={(open) => setDialog(open ? 'password' : null)} title={t('account.changePassword')} description={t('account.otherSessionsEnd')}>
        <ChangePasswordForm
          onDone={() => {
            setDialog(null);
            setPasswordChanged(true);
          }}
        />
      </Modal>
      {passwordChanged && <PasswordChangedToast onDismiss={() => setPasswordChanged(false)} />}
      {PROFILE_DIALOGS.map(({ dialog: which, title, description, Form }) => (
        <Modal key={which} open={dialog === which} onOpenChange={(open) => setDialog(open ? which : null)} title={t(title)} description={t(description)}>
          {profile.error ? (
            <RetryAlert onRetry={() => void profile.refetch()} retryLabel={t('account.retry')}>
              {t('account.loadFailed')}
            </RetryAlert>
          ) : profile.data ? (
            <Suspense fallback={<p className="text-sm text-slate-500">{t('app.loading')}</p>}>
              <Form profile={profile.data} />
            </Suspense>
          ) : (
            <p className="text-sm text-slate-600">{t('app.loading')}</p>
          )}
        </Modal>
      ))}
    </>
  );
}
