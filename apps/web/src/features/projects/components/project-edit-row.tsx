import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { END_BEFORE_START, PROJECT_STATUSES, updateProjectInput, type Project } from '@siteboard/shared';
import type { z } from 'zod';
import { DateField, SelectField, TextField } from '../../../components/ui/form-field';
import { EditActionsCell, EditingRow, useRowSave, type EditRowProps } from '../../../components/ui/editable-rows';
import { personLabel } from '../../../components/ui/person-text';
import { useConfirm } from '../../../components/ui/confirm-dialog';
import { ApiError } from '../../../lib/api-client';
import { wrapCellClass } from '../../../components/ui/table';
import { useUpdateProject } from '../api/update-project';
import type { ManagerOption } from './manager-option';
import { ProjectOpenWork } from './project-open-work';

/** The server checks the merged row; the form checks the dates it shows before sending them. */
const editSchema = updateProjectInput.refine((input) => !input.start_date || !input.end_date || input.end_date >= input.start_date, {
  path: ['end_date'],
  message: END_BEFORE_START,
});
type EditInput = z.input<typeof editSchema>;
type EditOutput = z.output<typeof editSchema>;

const EDIT_FIELDS = ['name', 'description', 'start_date', 'end_date', 'manager', 'status'] as const;

/** Spec §8: a project that is gone, a refusal, else "Failed to update project: " and the server's words. */
const FAILURE = { notFound: 'admin.projects.notFound', forbidden: 'admin.projects.forbiddenUpdate', other: 'admin.projects.updateFailed' };

/**
 * A row of AdminProjectsTable (admin-projects-table.tsx) in edit mode. Loaded when its Edit is
 * first pointed at or used.
 */
export function ProjectEditRow({ project, managers, ...result }: EditRowProps & { project: Omit<Project, 'major_tasks'>; managers: ManagerOption[] }) {
  const { t } = useTranslation();
  const update = useUpdateProject();
  const formId = `edit-project-${project.id}`;
  const currentManager = managers.some((manager) => manager.id === project.manager?.id) ? String(project.manager?.id) : '';
  const form = useForm<EditInput, unknown, EditOutput>({
    resolver: zodResolver(editSchema),
    defaultValues: {
      name: project.name,
      description: project.description,
      start_date: project.start_date,
      end_date: project.end_date,
      manager: currentManager,
      status: project.status,
    },
  });
  const { errors } = form.formState;
  // Opened before the managers had loaded, the row chooses the project's own once they arrive,
  // unless the admin has chosen meanwhile: else Save would ask for a manager the project has.
  useEffect(() => {
    if (currentManager && !form.getFieldState('manager').isDirty && form.getValues('manager') === '') form.resetField('manager', { defaultValue: currentManager });
  }, [currentManager, form]);

  const confirmCompletion = useConfirm({ title: t('account.completeProjectTitle'), confirmLabel: t('account.completeProjectConfirm'), cancelLabel: t('action.cancel') });
  // Completing a project with unfinished work: the server says how much, and that nothing is approved (409); asked, the admin confirms or keeps editing.
  const save = async (input: EditOutput) => {
    try {
      return await update.mutateAsync({ id: project.id, input });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409) || !(await confirmCompletion.ask(<ProjectOpenWork projectId={project.id} detail={error.detail} />))) throw error;
      return update.mutateAsync({ id: project.id, input: { ...input, confirm_open_work: true } });
    }
  };
  const onSubmit = useRowSave({
    form,
    fields: EDIT_FIELDS,
    save,
    successText: t('admin.projects.updated'),
    failure: FAILURE,
    ...result,
  });

  // One cell for the six fields, labelled and laid out in a grid (as the user edit row): the row
  // keeps the table's width at 1280 px, so nothing scrolls sideways or sits under Save and Cancel.
  // The zero-width box that fills its cell keeps the controls from widening the table.
  const field = { form: formId };
  return (
    <EditingRow onCancel={() => result.onClose()}>
      <td colSpan={6} className={wrapCellClass}>
        {confirmCompletion.dialog}
        <div className="w-0 min-w-full">
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3 [&>*]:min-w-0">
            <TextField {...field} label={t('admin.projects.name')} autoFocus error={errors.name?.message} {...form.register('name')} />
            <TextField {...field} label={t('admin.projects.description')} error={errors.description?.message} {...form.register('description')} />
            <SelectField {...field} label={t('admin.projects.manager')} error={errors.manager?.message} {...form.register('manager')}>
              <option value="">{t('admin.projects.selectManager')}</option>
              {managers.map((manager) => (
                <option key={manager.id} value={manager.id}>
                  {personLabel(manager)}
                </option>
              ))}
            </SelectField>
            <Controller control={form.control} name="start_date" render={({ field: date }) => <DateField {...field} label={t('admin.projects.startDate')} error={errors.start_date?.message} {...date} />} />
            <Controller control={form.control} name="end_date" render={({ field: date }) => <DateField {...field} label={t('admin.projects.endDate')} error={errors.end_date?.message} {...date} />} />
            <SelectField {...field} label={t('admin.projects.status')} error={errors.status?.message} {...form.register('status')}>
              {PROJECT_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {t(`status.${status}`)}
                </option>
              ))}
            </SelectField>
          </div>
        </div>
      </td>
      <EditActionsCell subject={project.name} formId={formId} busy={form.formState.isSubmitting} onCancel={() => result.onClose()} onSubmit={onSubmit} />
    </EditingRow>
  );
}
