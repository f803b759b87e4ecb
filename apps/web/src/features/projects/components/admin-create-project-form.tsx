import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { createProjectInput, isOngoingStatus, PROJECT_STATUSES } from '@siteboard/shared';
import type { z } from 'zod';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { DraftNotice } from '../../../components/ui/draft-notice';
import { DateField, SelectField, TextField } from '../../../components/ui/form-field';
import { useLeaveGuard } from '../../../components/ui/leave-guard';
import { applyFieldErrors } from '../../../lib/api-client';
import { useDraftOf, useFormDraft } from '../../../lib/form-draft';
import { useFailureMessage } from '../../../lib/failure-message';
import { useCreateProject } from '../api/create-project';
import type { ManagerOption } from './manager-option';
import { personLabel } from '../../../components/ui/person-text';

type FormInput = z.input<typeof createProjectInput>;
type FormOutput = z.output<typeof createProjectInput>;

const FIELDS = ['name', 'description', 'start_date', 'end_date', 'manager_id', 'status'] as const;

/**
 * The admin's "Create Project" form. The managers come from the page (users are another
 * feature's); while they load the select waits, and without any there is nobody to pick.
 */
export function AdminCreateProjectForm({
  companyId,
  managers,
  managersLoading,
}: {
  companyId: number;
  /** Undefined until they have loaded (or when loading them failed: the page says so). */
  managers: ManagerOption[] | undefined;
  managersLoading: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const createProject = useCreateProject();
  const failureMessage = useFailureMessage();
  const [failure, setFailure] = useState<string | null>(null);
  // Kept on this device until sent or discarded; leaving through a link asks first.
  const draft = useFormDraft<FormInput>('create-project', { name: '', description: '', start_date: '', end_date: '', manager_id: '', status: 'ongoing' });
  const form = useForm<FormInput, unknown, FormOutput>({ resolver: zodResolver(createProjectInput), defaultValues: draft.initialValues });
  useDraftOf(draft, form);
  const leaveDialog = useLeaveGuard(draft.dirty, t('drafts.leaveDescription'));
  const { errors } = form.formState;

  // The draft's manager is chosen once the managers are listed (before, the select had no such option).
  useEffect(() => {
    const wanted = form.getValues('manager_id');
    if (managers?.length && wanted) form.setValue('manager_id', wanted);
  }, [form, managers]);

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await createProject.mutateAsync({ ...values, company_id: companyId });
      draft.discard();
      // Back on the dashboard, scrolled to the list the new project joined.
      navigate('/admin', { state: { scrollTo: isOngoingStatus(values.status) ? 'ongoing-projects' : 'completed-projects' } });
    } catch (error) {
      if (!applyFieldErrors<FormInput>(error, form.setError, FIELDS)) setFailure(failureMessage(error, { other: 'admin.createProject.failed' }));
    }
  });

  const noManagers = managers !== undefined && managers.length === 0;
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2">
      {leaveDialog}
      {draft.dirty && (
        <div className="sm:col-span-2">
          <DraftNotice restored={draft.restored} onDiscard={draft.discard} />
        </div>
      )}
      {failure && (
        <div className="sm:col-span-2">
          <Alert tone="error">{failure}</Alert>
        </div>
      )}
      <div className="sm:col-span-2">
        <TextField label={t('admin.projects.name')} autoComplete="off" error={errors.name?.message} {...form.register('name')} />
      </div>
      <div className="sm:col-span-2">
        <TextField label={t('admin.projects.description')} hint={t('admin.optional')} autoComplete="off" error={errors.description?.message} {...form.register('description')} />
      </div>
      <Controller control={form.control} name="start_date" render={({ field: date }) => <DateField label={t('admin.projects.startDate')} error={errors.start_date?.message} {...date} />} />
      <Controller control={form.control} name="end_date" render={({ field: date }) => <DateField label={t('admin.projects.endDate')} error={errors.end_date?.message} {...date} />} />
      <SelectField
        label={t('admin.projects.manager')}
        disabled={!managers?.length}
        hint={managersLoading ? t('admin.createUser.managersLoading') : undefined}
        error={noManagers ? 'admin.createUser.noManagersAtAll' : errors.manager_id?.message}
        {...form.register('manager_id')}
      >
        <option value="">{t('admin.projects.selectManager')}</option>
        {managers?.map((manager) => (
          <option key={manager.id} value={manager.id}>
            {personLabel(manager)}
          </option>
        ))}
      </SelectField>
      <SelectField label={t('admin.projects.status')} error={errors.status?.message} {...form.register('status')}>
        {PROJECT_STATUSES.map((status) => (
          <option key={status} value={status}>
            {t(`status.${status}`)}
          </option>
        ))}
      </SelectField>
      <div className="flex justify-end sm:col-span-2">
        <Button type="submit" disabled={form.formState.isSubmitting || !managers?.length}>
          {t('admin.createProject')}
        </Button>
      </div>
    </form>
  );
}
