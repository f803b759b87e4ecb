import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { acceptInvitationInput, type AcceptInvitationInput } from '@siteboard/shared';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { ApiError, applyFieldErrors } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { afterSignInPath } from '../../../lib/storage';
import { useAcceptInvitation } from '../api/accept-invitation';
import { useInvitation } from '../api/get-invitation';

const FIELDS = ['full_name', 'password'] as const;

/**
 * The page an invitation e-mail links to: who is invited where, then their name and password; the
 * new user is signed in and lands on their area. A used, revoked or expired link (410) says so.
 */
export function AcceptInvitationForm({ token }: { token: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { login } = useAuth();
  const invitation = useInvitation(token);
  const accept = useAcceptInvitation();
  const form = useForm<AcceptInvitationInput>({ resolver: zodResolver(acceptInvitationInput), values: { token, full_name: invitation.data?.full_name ?? '', password: '' } });

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await accept.mutateAsync(values);
      // The account exists now: signing in with it stores the session as every sign-in does.
      const user = await login({ email: answer.user.email, password: values.password, role: answer.user.role, companyId: String(answer.user.company_id) });
      navigate(afterSignInPath(user.role, undefined));
    } catch (error) {
      applyFieldErrors<AcceptInvitationInput>(error, form.setError, FIELDS);
    }
  });

  const gone = (error: unknown) => error instanceof ApiError && (error.status === 410 || error.status === 400 || error.status === 404);
  if (!token || gone(invitation.error) || gone(accept.error)) return <Alert tone="error">{t('invite.gone')}</Alert>;
  if (invitation.isError) return <Alert tone="error">{t('invite.loadFailed')}</Alert>;
  if (!invitation.data) return <p role="status">{t('invite.loading')}</p>;
  const failure = accept.error instanceof ApiError && !accept.error.errors ? accept.error.detail : accept.isError && !(accept.error instanceof ApiError) ? t('invite.failed') : null;
  const { errors } = form.formState;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <p className="text-sm text-slate-700" data-testid="invitation">
        {t('invite.who', { email: invitation.data.email, company: invitation.data.company.name, asRole: t(`role.as.${invitation.data.role}`) })}
      </p>
      {failure && <Alert tone="error">{failure}</Alert>}
      <TextField label={t('invite.fullName')} autoComplete="name" error={errors.full_name?.message} {...form.register('full_name')} />
      <TextField label={t('invite.password')} type="password" autoComplete="new-password" error={errors.password?.message} {...form.register('password')} />
      <Button type="submit" className="w-full" disabled={form.formState.isSubmitting}>
        {t('invite.submit')}
      </Button>
    </form>
  );
}
