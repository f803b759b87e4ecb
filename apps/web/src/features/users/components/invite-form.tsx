import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { createInvitationInput } from '@siteboard/shared';
import type { z } from 'zod';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { LanguageOptions } from '../../../components/ui/language-options';
import { SelectField, TextField } from '../../../components/ui/form-field';
import { ApiError, applyFieldErrors } from '../../../lib/api-client';
import { useFailureMessage } from '../../../lib/failure-message';
import { currentLanguage } from '../../../lib/i18n';
import { useCreateInvitation } from '../api/create-invitation';
import { useInvitations } from '../api/get-invitations';
import { RoleAndManagerFields, useManagerChoice } from './role-and-manager';

type FormInput = z.input<typeof createInvitationInput>;
type FormOutput = z.output<typeof createInvitationInput>;

const FIELDS = ['email', 'role', 'full_name', 'manager_id', 'language'] as const;
const EMPTY: FormInput = { email: '', role: 'team_member', full_name: '', manager_id: '' };

/**
 * Invites a person by e-mail instead of typing a password for them (issue 44): they choose their
 * own name and password through the link. A team member needs their manager, as on Create User.
 */
export function InviteForm() {
  const { t } = useTranslation();
  const createInvitation = useCreateInvitation();
  const failureMessage = useFailureMessage();
  const [failure, setFailure] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm<FormInput, unknown, FormOutput>({ resolver: zodResolver(createInvitationInput), shouldUnregister: true, defaultValues: { ...EMPTY, language: currentLanguage() } });
  const choice = useManagerChoice(form);
  const { managersQuery, managerId, isTeamMember, noManagers } = choice;
  // The list beside the form holds them (one request for both); an expired one can no longer be accepted.
  const invitedManagers = (useInvitations().data ?? [])
    .filter((invitation) => invitation.role === 'manager' && Date.parse(invitation.expires_at) > Date.now())
    .map((invitation) => invitation.full_name || invitation.email);

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    setSentTo(null);
    try {
      const invitation = await createInvitation.mutateAsync(values);
      setSentTo(invitation.email);
      // Ready for the next person, with the same role and manager: a crew is often invited together.
      form.reset({ ...EMPTY, role: values.role, manager_id: values.manager_id ? String(values.manager_id) : '', language: values.language });
    } catch (error) {
      // 409: the address belongs to a user of the company already; it is the address that must change.
      if (error instanceof ApiError && error.status === 409 && !error.errors) form.setError('email', { type: 'server', message: error.detail });
      else if (!applyFieldErrors<FormInput>(error, form.setError, FIELDS)) setFailure(failureMessage(error, { other: 'invitations.failed' }));
    }
  });

  const { errors } = form.formState;
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2" aria-label={t('invitations.formLabel')}>
      {(failure || sentTo || managersQuery.isError) && (
        <div className="space-y-3 sm:col-span-2">
          {failure && <Alert tone="error">{failure}</Alert>}
          {managersQuery.isError && <Alert tone="error">{t('admin.createUser.managersFailedRetry')}</Alert>}
          {sentTo && <Alert tone="success">{t('invitations.sent', { email: sentTo })}</Alert>}
        </div>
      )}
      <TextField label={t('admin.users.email')} type="email" autoComplete="off" error={errors.email?.message} {...form.register('email')} />
      <TextField label={t('account.fullName')} hint={t('invitations.fullNameHint')} autoComplete="off" error={errors.full_name?.message} {...form.register('full_name')} />
      <SelectField label={t('invitations.language')} hint={t('invitations.languageHint')} error={errors.language?.message} {...form.register('language')}>
        <LanguageOptions />
      </SelectField>
      <RoleAndManagerFields form={form} choice={choice} />
      {/* Nobody to choose yet, though a manager is invited: say so, rather than only "create a manager first". */}
      {isTeamMember && noManagers && invitedManagers.length > 0 && (
        <p className="text-sm text-slate-600 sm:col-span-2">{t('invitations.managerInvited', { count: invitedManagers.length, people: invitedManagers.join(', ') })}</p>
      )}
      <div className="flex justify-end sm:col-span-2">
        <Button type="submit" disabled={form.formState.isSubmitting || managersQuery.isPending || (isTeamMember && !managerId)}>
          {t('invitations.submit')}
        </Button>
      </div>
    </form>
  );
}
