import { zodResolver } from '@hookform/resolvers/zod';
import { createSubtaskInput, decideNewSubtask, isProjectManager, type User } from '@siteboard/shared';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { DraftNotice } from '../../../components/ui/draft-notice';
import { DateField, TextField } from '../../../components/ui/form-field';
import { useLeaveGuard } from '../../../components/ui/leave-guard';
import { ApiError, applyFieldErrors } from '../../../lib/api-client';
import { useDraftOf, useFormDraft } from '../../../lib/form-draft';
import { readerToday } from '../../../lib/format';
import { useMessageText } from '../../../lib/use-message-text';
import { useAuth } from '../../../lib/auth';
import type { ListSearch } from '../../../lib/lists';
import { useCreateSubtask } from '../api/create-subtask';
import { useProjectDates } from '../api/get-project-dates';
import { AssigneePicker } from './pickers';
import { PrioritySelect } from './priority-select';
import { useDueDateConfirm } from './use-due-date-confirm';

type Input = z.input<typeof createSubtaskInput>;
type Output = z.output<typeof createSubtaskInput>;

const FIELDS = ['name', 'description', 'assigned_to_id', 'due_date', 'priority'] as const;

/** Spec §8: the server's detail, else its response body, else the fallback. */
function failureText(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError) || error.body == null) return fallback;
  const detail = (error.body as { detail?: unknown }).detail;
  return typeof detail === 'string' ? detail : JSON.stringify(error.body);
}

interface Props {
  id: string;
  majorTaskId: number;
  /** The major task's project: a due date outside its dates is saved only once confirmed. */
  projectId: number;
  /** The manager of the major task's project: only they may create a subtask already overdue. */
  projectManagerId: number | null;
  findAssignees: ListSearch<User>;
  onCreated: () => void;
}

/** "Add New Subtask" under one major task; `onCreated` closes the form (the lists reload on their own). */
export function CreateSubtaskForm({ id, majorTaskId, projectId, projectManagerId, findAssignees, onCreated }: Props) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const { user } = useAuth();
  const today = readerToday();
  const mayBackdate = user !== null && isProjectManager(user, projectManagerId);
  const create = useCreateSubtask();
  const projectDates = useProjectDates(projectId);
  const dueDates = useDueDateConfirm();
  const [failure, setFailure] = useState<string | null>(null);
  // Kept on this device, per major task, until sent or discarded; leaving through a link asks first.
  const draft = useFormDraft<Input>(`create-subtask:${majorTaskId}`, { major_task: majorTaskId, name: '', description: '', assigned_to_id: '', due_date: '', priority: 'medium', status: 'ongoing' });
  const form = useForm<Input, unknown, Output>({ resolver: zodResolver(createSubtaskInput), defaultValues: draft.initialValues });
  useDraftOf(draft, form);
  const leaveDialog = useLeaveGuard(draft.dirty, t('drafts.leaveDescription'));
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    // The server's rule, checked here first: a date it would refuse is named at its field.
    const decision = user ? decideNewSubtask(user, projectManagerId, { status: values.status, dueDate: values.due_date }, today) : { ok: true as const };
    if (!decision.ok) {
      if (decision.field === 'due_date') form.setError('due_date', { message: decision.message });
      else setFailure(decision.message);
      return;
    }
    // Allowed, but a date in the past or outside the project's dates is saved only once confirmed.
    if (!(await dueDates.check([{ dueDate: values.due_date }], projectDates))) return;
    try {
      await create.mutateAsync(values);
      draft.discard();
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
      {dueDates.dialog}
      {leaveDialog}
      {failure && <Alert tone="error">{messageText(failure)}</Alert>}
      {draft.dirty && <DraftNotice restored={draft.restored} onDiscard={draft.discard} />}
      <div className="grid gap-4 md:grid-cols-2">
        <TextField label={t('taskBoard.title')} error={errors.name?.message} {...form.register('name')} />
        <TextField label={t('taskBoard.descriptionOptional')} error={errors.description?.message} {...form.register('description')} />
        <AssigneePicker
          find={findAssignees}
          error={errors.assigned_to_id?.message}
          onSearch={() => form.setValue('assigned_to_id', '')}
          initialChoice={String(draft.initialValues.assigned_to_id ?? '')}
          {...form.register('assigned_to_id')}
        />
        <Controller control={form.control} name="due_date" render={({ field: date }) => <DateField label={t('taskBoard.dueDate')} min={mayBackdate ? undefined : today} error={errors.due_date?.message} {...date} />} />
        <PrioritySelect error={errors.priority?.message} {...form.register('priority')} />
      </div>
      <Button type="submit" disabled={form.formState.isSubmitting}>
        {t('taskBoard.submitSubtask')}
      </Button>
    </form>
  );
}
