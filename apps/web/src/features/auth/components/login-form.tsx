import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { HOME_PATH, ROLES, tokenInput } from '@siteboard/shared';
import type { z } from 'zod';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/form-field';
import { ApiError } from '../../../lib/api-client';
import { InvalidRoleError, useAuth } from '../../../lib/auth';

const loginFormSchema = tokenInput.omit({ company_id: true });
type LoginFormInput = z.input<typeof loginFormSchema>;
type LoginFormOutput = z.output<typeof loginFormSchema>;

/** `newAdminEmail`: just after sign-up, the new admin's e-mail and role are filled in and the password has the focus. */
export function LoginForm({ companyId, newAdminEmail }: { companyId: string; newAdminEmail?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { login } = useAuth();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<LoginFormInput, unknown, LoginFormOutput>({
    resolver: zodResolver(loginFormSchema),
    defaultValues: newAdminEmail ? { role: 'admin', email: newAdminEmail, password: '' } : { role: '' as LoginFormInput['role'], email: '', password: '' },
  });

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const user = await login({ ...values, companyId });
      navigate(HOME_PATH[user.role]);
    } catch (error) {
      if (error instanceof InvalidRoleError) setFailure(t('login.invalidRole'));
      else if (error instanceof ApiError && error.status === 429) setFailure(error.detail);
      else setFailure(t('login.failed'));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {failure && <Alert tone="error">{failure}</Alert>}
      <SelectField label={t('login.role')} error={form.formState.errors.role?.message} {...form.register('role')}>
        <option value="">{t('login.selectRole')}</option>
        {ROLES.map((role) => (
          <option key={role} value={role}>
            {t(`role.${role}`)}
          </option>
        ))}
      </SelectField>
      <TextField label={t('login.email')} type="email" autoComplete="username" error={form.formState.errors.email?.message} {...form.register('email')} />
      <TextField label={t('login.password')} type="password" autoComplete="current-password" autoFocus={newAdminEmail !== undefined} error={form.formState.errors.password?.message} {...form.register('password')} />
      <Button type="submit" className="w-full" disabled={form.formState.isSubmitting}>
        {t('login.submit')}
      </Button>
    </form>
  );
}
