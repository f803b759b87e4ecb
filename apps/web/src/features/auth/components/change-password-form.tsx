import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { changePasswordInput, type ChangePasswordInput } from '@siteboard/shared';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { applyFieldErrors } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { failureDetail } from '../../../lib/failure-message';
import { useChangePassword } from '../api/change-password';

/**
 * Current password, then the new one: the server checks the current one (a wrong one is marked on
 * its field) and ends the user's other sessions. `onDone` runs once the profile says so.
 */
export function ChangePasswordForm({ onDone }: { onDone?: () => void }) {
  const { t } = useTranslation();
  const { refreshProfile } = useAuth();
  const change = useChangePassword();
  const [failure, setFailure] = useState<string | null>(null);
  const [changed, setChanged] = useState(false);
  const form = useForm<ChangePasswordInput>({ resolver: zodResolver(changePasswordInput), defaultValues: { current_password: '', new_password: '' } });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await change.mutateAsync(values);
      form.reset();
      setChanged(true);
      await refreshProfile();
      onDone?.();
    } catch (error) {
      if (!applyFieldErrors<ChangePasswordInput>(error, (name, message) => form.setError(name, message), ['current_password', 'new_password'])) setFailure(failureDetail(error));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {failure && <Alert tone="error">{failure}</Alert>}
      {changed && <Alert tone="success">{t('account.passwordChanged')}</Alert>}
      <TextField label={t('account.currentPassword')} type="password" autoComplete="current-password" error={errors.current_password?.message} {...form.register('current_password')} />
      <TextField
        label={t('account.newPassword')}
        type="password"
        autoComplete="new-password"
        hint={t('account.newPasswordHint')}
        error={errors.new_password?.message}
        {...form.register('new_password')}
      />
      <Button type="submit" className="w-full" disabled={form.formState.isSubmitting}>
        {t('account.changePassword')}
      </Button>
    </form>
  );
}
