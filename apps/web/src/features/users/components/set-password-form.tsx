import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { newPassword, type User } from '@siteboard/shared';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { Modal } from '../../../components/ui/modal';
import { personLabel } from '../../../components/ui/person-text';
import { failureDetail } from '../../../lib/failure-message';
import { useSetUserPassword } from '../api/set-user-password';

/** The dialog of SetPasswordButton (user-row-actions.tsx): the new password, checked as the server checks it. */
export function SetPasswordDialog({ user, open, onOpenChange, onDone }: { user: User; open: boolean; onOpenChange: (open: boolean) => void; onDone: (text: string) => void }) {
  const { t } = useTranslation();
  const setPassword = useSetUserPassword();
  const [password, setPasswordValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async () => {
    setFailure(null);
    const parsed = newPassword.safeParse(password);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? null);
    setError(null);
    try {
      await setPassword.mutateAsync({ id: user.id, password });
      onOpenChange(false);
      setPasswordValue('');
      onDone(t('account.setPasswordDone', { email: personLabel(user) }));
    } catch (caught) {
      setFailure(failureDetail(caught));
    }
  };

  return (
    <Modal open={open} onOpenChange={onOpenChange} title={t('account.setPassword')} description={t('account.setPasswordDescription', { email: personLabel(user) })}>
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        {failure && <Alert tone="error">{failure}</Alert>}
        <TextField label={t('account.newPassword')} type="password" autoComplete="new-password" hint={t('account.newPasswordHint')} error={error ?? undefined} value={password} onChange={(event) => setPasswordValue(event.target.value)} />
        <Button type="submit" className="w-full" disabled={setPassword.isPending}>
          {t('account.setPassword')}
        </Button>
      </form>
    </Modal>
  );
}
