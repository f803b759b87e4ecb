import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ROLES, tokenInput, type Role } from '@siteboard/shared';
import type { z } from 'zod';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/form-field';
import { ApiError } from '../../../lib/api-client';
import { InvalidRoleError, useAuth } from '../../../lib/auth';
import { afterSignInPath } from '../../../lib/storage';

const loginFormSchema = tokenInput.omit({ company_id: true });
type LoginFormInput = z.input<typeof loginFormSchema>;
type LoginFormOutput = z.output<typeof loginFormSchema>;

/**
 * `known`: who is signing in is known (sign-up's new admin, or a session that just ended): the
 * e-mail and role are filled in and the password has the focus. `returnTo`: the page to open after
 * signing in, when it belongs to the role's area.
 */
export function LoginForm({ companyId, known, returnTo }: { companyId: string; known?: { email: string; role: Role }; returnTo?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { login } = useAuth();
  const [failure, setFailure] = useState<string | null>(null);
  // The server refused the sign-in without saying why (it tells nothing of which part was wrong):
  // the one part people do not think to check is the role they picked.
  const [refused, setRefused] = useState(false);
  const form = useForm<LoginFormInput, unknown, LoginFormOutput>({
    resolver: zodResolver(loginFormSchema),
    defaultValues: known ? { role: known.role, email: known.email, password: '' } : { role: '' as LoginFormInput['role'], email: '', password: '' },
  });

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    setRefused(false);
    try {
      const user = await login({ ...values, companyId });
      navigate(afterSignInPath(user.role, returnTo));
    } catch (error) {
      if (error instanceof InvalidRoleError) setFailure(t('login.invalidRole'));
      else if (error instanceof ApiError && error.status === 429) setFailure(error.detail);
      else {
        setFailure(t('login.failed'));
        setRefused(error instanceof ApiError && error.status === 401);
      }
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {failure && <Alert tone="error">{failure}</Alert>}
      {refused && <p className="text-sm text-slate-600">{t('login.checkRole')}</p>}
      <SelectField label={t('login.role')} error={form.formState.errors.role?.message} {...form.register('role')}>
        <option value="">{t('login.selectRole')}</option>
        {ROLES.map((role) => (
          <option key={role} value={role}>
            {t(`role.${role}`)}
          </option>
        ))}
      </SelectField>
      <TextField label={t('login.email')} type="email" autoComplete="username" error={form.formState.errors.email?.message} {...form.register('email')} />
      <TextField label={t('login.password')} type="password" autoComplete="current-password" autoFocus={known !== undefined} error={form.formState.errors.password?.message} {...form.register('password')} />
      <Button type="submit" className="w-full" disabled={form.formState.isSubmitting}>
        {t('login.submit')}
      </Button>
    </form>
  );
}
