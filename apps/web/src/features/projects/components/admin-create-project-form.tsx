import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { createProjectInput, isOngoingStatus, PROJECT_STATUSES } from '@siteboard/shared';
import type { z } from 'zod';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/form-field';
import { applyFieldErrors } from '../../../lib/api-client';
import { useFailureMessage } from '../../../lib/failure-message';
import { useCreateProject } from '../api/create-project';
import type { ManagerOption } from './admin-projects-table';
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
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(createProjectInput),
    defaultValues: { name: '', description: '', start_date: '', end_date: '', manager_id: '', status: 'ongoing' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await createProject.mutateAsync({ ...values, company_id: companyId });
      // Back on the dashboard, scrolled to the list the new project joined.
      navigate('/admin', { state: { scrollTo: isOngoingStatus(values.status) ? 'ongoing-projects' : 'completed-projects' } });
    } catch (error) {
      if (!applyFieldErrors<FormInput>(error, form.setError, FIELDS)) setFailure(failureMessage(error, { other: 'admin.createProject.failed' }));
    }
  });

  const noManagers = managers !== undefined && managers.length === 0;
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2">
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
      <TextField label={t('admin.projects.startDate')} type="date" error={errors.start_date?.message} {...form.register('start_date')} />
      <TextField label={t('admin.projects.endDate')} type="date" error={errors.end_date?.message} {...form.register('end_date')} />
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
