import * as Popover from '@radix-ui/react-popover';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/ui/modal';
import { useAuth } from '../../../lib/auth';
import { ChangePasswordForm } from './change-password-form';

/**
 * The avatar in the header, as the user's menu: "Change password" opens the form in a dialog.
 * Every role has it, in every shell.
 */
export function AccountMenu({ avatar }: { avatar: string }) {
  const { t } = useTranslation();
  const email = useAuth().user?.email;
  const [menuOpen, setMenuOpen] = useState(false);
  const [dialogOpen, setDialogOpen] = useState(false);

  return (
    <>
      <Popover.Root open={menuOpen} onOpenChange={setMenuOpen}>
        <Popover.Trigger
          className="flex h-9 min-w-9 items-center justify-center rounded-full bg-brand-600 px-2 text-xs font-bold text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2"
          aria-label={t('account.menu')}
        >
          <span aria-hidden>{avatar}</span>
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content align="end" sideOffset={8} className="z-40 w-60 rounded-xl border border-slate-200 bg-white p-2 shadow-lg">
            {email && <p className="truncate px-3 py-2 text-xs text-slate-500">{email}</p>}
            <button
              type="button"
              className="w-full rounded-lg px-3 py-2 text-left text-sm font-medium text-ink hover:bg-slate-100 focus-visible:bg-slate-100 focus-visible:outline-none"
              onClick={() => {
                setMenuOpen(false);
                setDialogOpen(true);
              }}
            >
              {t('account.changePassword')}
            </button>
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      <Modal open={dialogOpen} onOpenChange={setDialogOpen} title={t('account.changePassword')} description={t('account.otherSessionsEnd')}>
        <ChangePasswordForm />
      </Modal>
    </>
  );
}
