import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { SUCCESS_SHOWN_MS, Toast } from '../../../components/ui/toast';

// The form and its validation (react-hook-form, zod) load when the account menu's dialog opens.
const Form = lazy(() => import('./change-password-form').then((module) => ({ default: module.ChangePasswordForm })));

/** The change-password form, its code fetched on first show (a loading line meanwhile). */
export function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<p className="text-sm text-slate-500">{t('app.loading')}</p>}>
      <Form onDone={onDone} />
    </Suspense>
  );
}

/** The confirmation once the form has closed: the password changed and the other sessions ended. */
export function PasswordChangedToast({ onDismiss }: { onDismiss: () => void }) {
  const { t } = useTranslation();
  return (
    <Toast tone="success" onDismiss={onDismiss} dismissLabel={t('action.dismiss')} hideAfterMs={SUCCESS_SHOWN_MS}>
      {t('account.passwordChanged')}
    </Toast>
  );
}
