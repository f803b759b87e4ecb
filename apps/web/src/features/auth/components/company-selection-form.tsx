import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { verifyCompanyPasswordInput, type VerifyCompanyPasswordInput } from '@siteboard/shared';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { ApiError } from '../../../lib/api-client';
import { loginPath, storage, type LoginState } from '../../../lib/storage';
import { useVerifyCompanyPassword } from '../api/verify-company-password';

export function CompanySelectionForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const verify = useVerifyCompanyPassword();
  const form = useForm<VerifyCompanyPasswordInput>({
    resolver: zodResolver(verifyCompanyPasswordInput),
    defaultValues: { company_name: '', password: '' },
  });

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const result = await verify.mutateAsync(values);
      storage.setCompany(result.company_id, result.company_name);
      navigate(loginPath(result.company_id), { state: { companyName: result.company_name } satisfies LoginState });
    } catch {
      // shown below from verify.error
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {verify.isError && <Alert tone="error">{companyPasswordMessage(verify.error, t('companySelection.invalidPassword'))}</Alert>}
      <TextField
        label={t('companySelection.companyName')}
        placeholder={t('companySelection.companyNamePlaceholder')}
        autoComplete="organization"
        error={form.formState.errors.company_name?.message}
        {...form.register('company_name')}
      />
      <TextField
        label={t('companySelection.password')}
        type="password"
        placeholder={t('companySelection.passwordPlaceholder')}
        autoComplete="current-password"
        error={form.formState.errors.password?.message}
        {...form.register('password')}
      />
      <Button type="submit" className="w-full" disabled={form.formState.isSubmitting}>
        {t('companySelection.submit')}
      </Button>
      <p className="text-center text-sm text-slate-600">
        {t('companySelection.newCompany')}{' '}
        <Link to="/signup" className="font-semibold text-brand-700 underline-offset-2 hover:underline">
          {t('companySelection.createCompany')}
        </Link>
      </p>
    </form>
  );
}

/** Spec §8: the server's `error` field when it sent one, else the fixed message. */
function companyPasswordMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    const body = error.body as { error?: unknown } | null;
    if (body && typeof body.error === 'string') return body.error;
    if (error.status === 429) return error.detail;
  }
  return fallback;
}
