import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { updateProfileInput, type Profile } from '@siteboard/shared';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useFailureMessage } from '../../../lib/failure-message';
import { useMessageText } from '../../../lib/use-message-text';
import { useUpdateFullName } from '../api/update-full-name';

/** One's own name (PATCH /api/profile/): the header, lists, tasks and notifications show it instead of the e-mail. */
export function NameForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const update = useUpdateFullName();
  const { refreshProfile } = useAuth();
  const failureMessage = useFailureMessage();
  const messageText = useMessageText();
  const [name, setName] = useState(profile.full_name ?? '');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    setFailure(null);
    setSaved(false);
    // The server's rule, checked here first: a name too long is marked without a round trip (or a signal).
    const checked = updateProfileInput.safeParse({ full_name: name });
    if (!checked.success) {
      setError(messageText(checked.error.issues[0]!.message));
      return;
    }
    try {
      await update.mutateAsync(name);
      // The header and the stored user show the new name at once.
      await refreshProfile().catch(() => {});
      setSaved(true);
    } catch (failed) {
      const field = failed instanceof ApiError ? failed.errors?.full_name?.[0] : undefined;
      if (field) setError(field);
      else setFailure(failureMessage(failed, { other: 'account.nameFailed' }));
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-4">
      {failure && <Alert tone="error">{failure}</Alert>}
      {saved && <Alert tone="success">{t('account.nameSaved')}</Alert>}
      <TextField label={t('account.fullName')} autoComplete="name" value={name} error={error ?? undefined} onChange={(event) => setName(event.target.value)} />
      <Button type="submit" className="w-full" disabled={update.isPending}>
        {t('account.nameSave')}
      </Button>
    </form>
  );
}
