import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { ApiError } from '../../../lib/api-client';
import { useConfirmPasswordReset } from '../api/confirm-password-reset';

/** The page a forgotten password's e-mail links to: a new password, twice; every other session of the user ends. */
export function ResetPasswordForm({ token }: { token: string }) {
  const { t } = useTranslation();
  const reset = useConfirmPasswordReset();
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [mismatch, setMismatch] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setMismatch(password !== again);
    if (password !== again) return;
    await reset.mutateAsync({ token, password }).catch(() => {});
  };

  if (reset.isSuccess)
    return (
      <div className="space-y-4">
        <Alert tone="success">{t('reset.done')}</Alert>
        <Link to="/company-selection" className="font-medium text-brand-700 underline">
          {t('reset.signIn')}
        </Link>
      </div>
    );
  const error = reset.error;
  if (!token || (error instanceof ApiError && error.status === 410)) return <Alert tone="error">{t('reset.gone')}</Alert>;
  const fieldError = error instanceof ApiError ? (error.errors?.password?.[0] ?? error.detail) : error ? t('reset.failed') : undefined;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <TextField label={t('reset.password')} type="password" autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} error={fieldError} />
      <TextField label={t('reset.again')} type="password" autoComplete="new-password" value={again} onChange={(event) => setAgain(event.target.value)} error={mismatch ? t('reset.mismatch') : undefined} />
      <Button type="submit" className="w-full" disabled={reset.isPending}>
        {t('reset.submit')}
      </Button>
    </form>
  );
}
