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
 * its field) and ends the user's other sessions. `proof`: right after a sign-in with the password to
 * replace, the sign-in's proof of it stands in for the current password, whose field is then not
 * shown (it comes back if the server no longer takes the proof). `onDone` runs once the profile
 * says so: the caller closes the form and confirms. `autoFocus`: the first field shown takes the
 * focus, as the sign-in card's password does for a person it knows (the password gate's screen).
 */
export function ChangePasswordForm({ onDone, proof, autoFocus }: { onDone: () => void; proof?: string | null; autoFocus?: boolean }) {
  const { t } = useTranslation();
  const { refreshProfile } = useAuth();
  const change = useChangePassword();
  const [failure, setFailure] = useState<string | null>(null);
  const [withProof, setWithProof] = useState(Boolean(proof));
  const form = useForm<ChangePasswordInput>({
    resolver: zodResolver(changePasswordInput),
    defaultValues: { current_password: '', new_password: '', password_proof: proof ?? undefined },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async ({ current_password, password_proof, new_password }) => {
    setFailure(null);
    try {
      await change.mutateAsync(withProof ? { password_proof, new_password } : { current_password, new_password });
      form.reset();
      await refreshProfile().catch(() => {});
      onDone();
    } catch (error) {
      const applied = applyFieldErrors<ChangePasswordInput>(error, (name, message) => form.setError(name, message), ['current_password', 'new_password']);
      if (applied && form.getFieldState('current_password').error) {
        setWithProof(false);
        form.setValue('password_proof', undefined);
      }
      if (!applied) setFailure(failureDetail(error));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {failure && <Alert tone="error">{failure}</Alert>}
      {!withProof && (
        <TextField label={t('account.currentPassword')} type="password" autoComplete="current-password" autoFocus={autoFocus} error={errors.current_password?.message} {...form.register('current_password')} />
      )}
      <TextField
        label={t('account.newPassword')}
        type="password"
        autoComplete="new-password"
        autoFocus={autoFocus && withProof}
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
