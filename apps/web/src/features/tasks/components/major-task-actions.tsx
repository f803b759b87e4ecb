import { zodResolver } from '@hookform/resolvers/zod';
import { updateMajorTaskInput, type MajorTaskSummary } from '@siteboard/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextAreaField, TextField } from '../../../components/ui/form-field';
import { ApiError, applyFieldErrors } from '../../../lib/api-client';
import { useDeleteMajorTask } from '../api/delete-major-task';
import { useUpdateMajorTask } from '../api/update-major-task';

type Values = z.input<typeof updateMajorTaskInput>;

/**
 * Edit and Delete of a major task, for whom `canManageMajorTask` allows (the project's manager,
 * the manager who created it, an admin) in a project still open; the server holds the same rule.
 * `describedBy` is the task's name: on a project with several tasks open, each Delete says whose.
 */
export function MajorTaskActions({ majorTask, describedBy }: { majorTask: MajorTaskSummary; describedBy?: string }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const remove = useDeleteMajorTask();
  const detail = (error: unknown) => (error instanceof ApiError ? error.detail : String(error));

  return (
    <div className="space-y-3">
      {failure && <Alert tone="error">{failure}</Alert>}
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" aria-expanded={editing} aria-describedby={describedBy} onClick={() => setEditing((value) => !value)}>
          {editing ? t('majorTaskEdit.cancel') : t('majorTaskEdit.edit')}
        </Button>
        <ConfirmDialog
          trigger={
            <Button variant="secondary" aria-describedby={describedBy} disabled={remove.isPending}>
              {t('majorTaskEdit.delete')}
            </Button>
          }
          title={t('majorTaskEdit.deleteTitle')}
          description={t('majorTaskEdit.deleteDescription', { name: majorTask.name, count: majorTask.subtask_counts.total })}
          confirmLabel={t('majorTaskEdit.delete')}
          cancelLabel={t('majorTaskEdit.cancel')}
          onConfirm={() => {
            setFailure(null);
            remove.mutate(majorTask.id, { onError: (error) => setFailure(t('majorTaskEdit.deleteFailed', { detail: detail(error) })) });
          }}
        />
      </div>
      {editing && <MajorTaskEditForm majorTask={majorTask} onDone={() => setEditing(false)} />}
    </div>
  );
}

function MajorTaskEditForm({ majorTask, onDone }: { majorTask: MajorTaskSummary; onDone: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateMajorTask();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Values, unknown, z.output<typeof updateMajorTaskInput>>({
    resolver: zodResolver(updateMajorTaskInput),
    defaultValues: { name: majorTask.name, description: majorTask.description },
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await update.mutateAsync({ id: majorTask.id, input: values });
      onDone();
    } catch (error) {
      if (!applyFieldErrors<Values>(error, form.setError, ['name', 'description'])) setFailure(t('majorTaskEdit.saveFailed', { detail: error instanceof ApiError ? error.detail : String(error) }));
    }
  });
  return (
    <form onSubmit={submit} noValidate className="space-y-4 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
      {failure && <Alert tone="error">{failure}</Alert>}
      <TextField label={t('majorTaskEdit.name')} error={errors.name?.message} {...form.register('name')} />
      <TextAreaField label={t('majorTaskEdit.description')} error={errors.description?.message} {...form.register('description')} />
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onDone}>
          {t('majorTaskEdit.cancel')}
        </Button>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {t('majorTaskEdit.save')}
        </Button>
      </div>
    </form>
  );
}
