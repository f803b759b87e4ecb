import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { createUserInput } from '@siteboard/shared';
import type { z } from 'zod';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { useLeaveGuard } from '../../../components/ui/leave-guard';
import { ApiError, applyFieldErrors } from '../../../lib/api-client';
import { useFailureMessage } from '../../../lib/failure-message';
import { useCreateUser } from '../api/create-user';
import { RoleAndManagerFields, useManagerChoice } from './role-and-manager';

type FormInput = z.input<typeof createUserInput>;
type FormOutput = z.output<typeof createUserInput>;

const FIELDS = ['full_name', 'email', 'password', 'role', 'designation', 'mobile_number', 'manager_id'] as const;

/**
 * "Create New User" (spec §5): a manager, or a team member with the manager they report to. The
 * form waits for the managers; a manager choice that is not one of them falls back to the first.
 */
export function CreateUserForm({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const createUser = useCreateUser();
  const failureMessage = useFailureMessage();
  const [failure, setFailure] = useState<string | null>(null);
  // Without a manager select on screen (role manager) no manager id is sent at all.
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(createUserInput),
    shouldUnregister: true,
    // A password the admin typed is theirs to pass on, not the person's to keep: changed at the first sign-in unless the admin says otherwise.
    defaultValues: { full_name: '', email: '', password: '', role: 'team_member', designation: '', mobile_number: '', manager_id: '', must_change_password: true },
  });
  // Not kept as a draft (it holds a password): leaving through a link with input asks first.
  const leaveDialog = useLeaveGuard(form.formState.isDirty && !createUser.isSuccess, t('drafts.leaveLost'));
  const choice = useManagerChoice(form);
  const { managersQuery, managerId, isTeamMember } = choice;
  const loading = managersQuery.isPending;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await createUser.mutateAsync({ ...values, company_id: companyId });
      navigate('/admin?refresh=true');
    } catch (error) {
      if (!applyFieldErrors<FormInput>(error, form.setError, FIELDS)) setFailure(failureMessage(error, { other: 'admin.users.failed' }));
    }
  });

  const loadFailure = managersQuery.isError
    ? managersQuery.error instanceof ApiError
      ? t('admin.createUser.managersFailed', { detail: managersQuery.error.detail })
      : t('admin.createUser.managersFailedRetry')
    : null;
  const { errors } = form.formState;

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2" aria-busy={loading}>
      {leaveDialog}
      {(failure || loadFailure || loading) && (
        <div className="space-y-3 sm:col-span-2">
          {failure && <Alert tone="error">{failure}</Alert>}
          {loadFailure && <Alert tone="error">{loadFailure}</Alert>}
          {loading && <Alert tone="info">{t('admin.createUser.managersLoading')}</Alert>}
        </div>
      )}
      <TextField label={t('account.fullName')} hint={t('admin.optional')} autoComplete="off" error={errors.full_name?.message} {...form.register('full_name')} />
      <div aria-hidden className="hidden sm:block" />
      <TextField label={t('admin.users.email')} type="email" autoComplete="off" error={errors.email?.message} {...form.register('email')} />
      <TextField label={t('admin.createUser.password')} type="password" autoComplete="new-password" error={errors.password?.message} {...form.register('password')} />
      <label className="flex items-center gap-2 text-sm text-slate-800 sm:col-span-2">
        <input type="checkbox" className="h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-600" {...form.register('must_change_password')} />
        {t('admin.createUser.mustChangePassword')}
      </label>
      <RoleAndManagerFields form={form} choice={choice} />
      <TextField label={t('admin.users.designation')} hint={t('admin.optional')} autoComplete="organization-title" error={errors.designation?.message} {...form.register('designation')} />
      <TextField label={t('admin.users.mobile')} hint={t('admin.optional')} type="tel" autoComplete="off" error={errors.mobile_number?.message} {...form.register('mobile_number')} />
      <div className="flex justify-end sm:col-span-2">
        <Button type="submit" disabled={form.formState.isSubmitting || loading || (isTeamMember && !managerId)}>
          {t('admin.createUser.submit')}
        </Button>
      </div>
    </form>
  );
}
