import { zodResolver } from '@hookform/resolvers/zod';
import { createSubtaskInput, type User } from '@siteboard/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { ApiError, applyFieldErrors } from '../../../lib/api-client';
import type { ListSearch } from '../../../lib/lists';
import { useCreateSubtask } from '../api/create-subtask';
import { AssigneePicker } from './pickers';
import { PrioritySelect } from './priority-select';

type Input = z.input<typeof createSubtaskInput>;
type Output = z.output<typeof createSubtaskInput>;

const FIELDS = ['name', 'description', 'assigned_to_id', 'due_date', 'priority'] as const;

/** Spec §8: the server's detail, else its response body, else the fallback. */
function failureText(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError) || error.body == null) return fallback;
  const detail = (error.body as { detail?: unknown }).detail;
  return typeof detail === 'string' ? detail : JSON.stringify(error.body);
}

/** "Add New Subtask" under one major task; `onCreated` closes the form (the lists reload on their own). */
export function CreateSubtaskForm({ id, majorTaskId, findAssignees, onCreated }: { id: string; majorTaskId: number; findAssignees: ListSearch<User>; onCreated: () => void }) {
  const { t } = useTranslation();
  const create = useCreateSubtask();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(createSubtaskInput),
    defaultValues: { major_task: majorTaskId, name: '', description: '', assigned_to_id: '', due_date: '', priority: 'medium', status: 'ongoing' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await create.mutateAsync(values);
      onCreated();
    } catch (error) {
      applyFieldErrors<Input>(error, form.setError, FIELDS);
      setFailure(failureText(error, t('taskBoard.subtaskFailed')));
    }
  });

  return (
    <form id={id} onSubmit={onSubmit} noValidate aria-labelledby={`${id}-title`} className="space-y-4 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
      <h4 id={`${id}-title`} className="font-semibold text-ink">
        {t('taskBoard.addSubtask')}
      </h4>
      {failure && <Alert tone="error">{failure}</Alert>}
      <div className="grid gap-4 md:grid-cols-2">
        <TextField label={t('taskBoard.title')} error={errors.name?.message} {...form.register('name')} />
        <TextField label={t('taskBoard.descriptionOptional')} error={errors.description?.message} {...form.register('description')} />
        <AssigneePicker
          find={findAssignees}
          error={errors.assigned_to_id?.message}
          onSearch={() => form.setValue('assigned_to_id', '')}
          {...form.register('assigned_to_id')}
        />
        <TextField label={t('taskBoard.dueDate')} type="date" error={errors.due_date?.message} {...form.register('due_date')} />
        <PrioritySelect error={errors.priority?.message} {...form.register('priority')} />
      </div>
      <Button type="submit" disabled={form.formState.isSubmitting}>
        {t('taskBoard.submitSubtask')}
      </Button>
    </form>
  );
}
