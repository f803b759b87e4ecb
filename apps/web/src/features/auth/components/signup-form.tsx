import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { deviceTimeZone, signupInput, type SignupInput } from '@siteboard/shared';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { TimeZonePicker } from '../../../components/ui/time-zone-picker';
import { ApiError, applyFieldErrors } from '../../../lib/api-client';
import { loginPath, storage, type LoginState } from '../../../lib/storage';
import { useSignup } from '../api/signup';

const FIELDS = ['company_name', 'company_password', 'email', 'password', 'timezone'] as const;

export function SignupForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signup = useSignup();
  const form = useForm<SignupInput>({
    resolver: zodResolver(signupInput),
    defaultValues: { company_name: '', company_password: '', email: '', password: '', timezone: deviceTimeZone() },
  });

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const result = await signup.mutateAsync(values);
      storage.setCompany(result.company_id, result.user.company.name);
      navigate(`${loginPath(result.company_id)}&created=1`, { state: { companyName: result.user.company.name, email: result.user.email } satisfies LoginState });
    } catch (error) {
      applyFieldErrors<SignupInput>(error, form.setError, FIELDS);
    }
  });

  // Field errors sit on their fields; anything else (a taken name, a network failure) goes on top.
  const failure = signup.error instanceof ApiError ? (signup.error.errors ? null : signup.error.detail) : signup.isError ? t('signup.failed') : null;
  const { errors } = form.formState;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {failure && <Alert tone="error">{failure}</Alert>}
      <TextField label={t('signup.companyName')} autoComplete="organization" error={errors.company_name?.message} {...form.register('company_name')} />
      <TextField
        label={t('signup.companyPassword')}
        type="password"
        autoComplete="new-password"
        hint={t('signup.companyPasswordHint')}
        error={errors.company_password?.message}
        {...form.register('company_password')}
      />
      <TextField label={t('signup.email')} type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
      <TextField label={t('signup.password')} type="password" autoComplete="new-password" error={errors.password?.message} {...form.register('password')} />
      <Controller
        control={form.control}
        name="timezone"
        render={({ field }) => <TimeZonePicker label={t('signup.timezone')} value={field.value ?? ''} onChange={field.onChange} error={errors.timezone?.message} />}
      />
      <Button type="submit" className="w-full" disabled={form.formState.isSubmitting}>
        {t('signup.submit')}
      </Button>
    </form>
  );
}
