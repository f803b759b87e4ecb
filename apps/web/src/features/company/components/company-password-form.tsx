import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { newPassword } from '@siteboard/shared';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { applyFieldErrors } from '../../../lib/api-client';
import { useFailureMessage } from '../../../lib/failure-message';
import { useChangeCompanyPassword } from '../api/change-company-password';

/**
 * The admin changes the company password, which everyone types with the company's name at the
 * sign-in page's company step: when someone who knew it has left. Checked as the server checks it;
 * nobody is signed out.
 */
export function CompanyPasswordForm() {
  const { t } = useTranslation();
  const change = useChangeCompanyPassword();
  const failureMessage = useFailureMessage();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setDone(false);
    const parsed = newPassword.safeParse(password);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    try {
      await change.mutateAsync({ password });
      setPassword('');
      setDone(true);
    } catch (caught) {
      if (!applyFieldErrors<{ password: string }>(caught, (_field, { message }) => setError(message), ['password'])) setFailure(failureMessage(caught, { other: 'companyPassword.failed' }));
    }
  };

  return (
    <form noValidate className="space-y-4" onSubmit={(event) => void submit(event)}>
      <p className="text-sm text-slate-600">{t('companyPassword.description')}</p>
      {failure && <Alert tone="error">{failure}</Alert>}
      {done && <Alert tone="success">{t('companyPassword.changed')}</Alert>}
      <TextField
        label={t('companyPassword.new')}
        type="password"
        autoComplete="new-password"
        hint={t('account.newPasswordHint')}
        error={error}
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <div className="flex justify-end">
        <Button type="submit" disabled={change.isPending}>
          {t('companyPassword.change')}
        </Button>
      </div>
    </form>
  );
}
