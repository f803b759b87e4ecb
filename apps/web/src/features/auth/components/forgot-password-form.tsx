import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { passwordResetInput } from '@siteboard/shared';
import type { z } from 'zod';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { ApiError } from '../../../lib/api-client';
import { useRequestPasswordReset } from '../api/request-password-reset';

const forgotFormSchema = passwordResetInput.omit({ company_id: true });
type ForgotFormInput = z.input<typeof forgotFormSchema>;
type ForgotFormOutput = z.output<typeof forgotFormSchema>;

/**
 * "Forgot your password?": the e-mail, for the company the sign-in is for. The answer is the same
 * whether or not the account exists; only a throttled request (429) is told apart.
 */
export function ForgotPasswordForm({ companyId, email }: { companyId: string; email?: string }) {
  const { t } = useTranslation();
  const request = useRequestPasswordReset();
  const form = useForm<ForgotFormInput, unknown, ForgotFormOutput>({ resolver: zodResolver(forgotFormSchema), defaultValues: { email: email ?? '' } });

  const onSubmit = form.handleSubmit(async (values) => {
    await request.mutateAsync({ company_id: Number(companyId), email: values.email }).catch(() => {});
  });

  if (request.isSuccess) return <Alert tone="success">{t('forgot.sent')}</Alert>;
  const error = request.error;
  const failure = error instanceof ApiError && error.status === 429 ? error.detail : error instanceof ApiError && error.errors?.email ? undefined : error ? t('forgot.failed') : undefined;
  const emailError = form.formState.errors.email?.message ?? (error instanceof ApiError ? error.errors?.email?.[0] : undefined);
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <p className="text-sm text-slate-600">{t('forgot.intro')}</p>
      {failure && <Alert tone="error">{failure}</Alert>}
      <TextField label={t('login.email')} type="email" autoComplete="username" autoFocus error={emailError} {...form.register('email')} />
      <Button type="submit" className="w-full" disabled={request.isPending}>
        {t('forgot.submit')}
      </Button>
    </form>
  );
}
