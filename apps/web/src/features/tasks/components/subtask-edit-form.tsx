import { assigneeChangeRefusal, updateSubtaskInput, type Subtask, type UpdateSubtaskInput, type User } from '@siteboard/shared';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { personLabel } from '../../../components/ui/person-text';
import { DateField, SelectField, TextAreaField, TextField } from '../../../components/ui/form-field';
import { ApiError, applyFieldErrors } from '../../../lib/api-client';
import { useMessageText } from '../../../lib/use-message-text';
import type { ListSearch } from '../../../lib/lists';
import { useProjectDates } from '../api/get-project-dates';
import { useUpdateSubtask } from '../api/update-subtask';
import { AssigneePicker } from './pickers';
import { PrioritySelect } from './priority-select';
import { useDueDateConfirm } from './use-due-date-confirm';

type Values = { name: string; description: string; due_date: string; priority: Subtask['priority']; assigned_to_id: string };
const FIELDS = ['name', 'description', 'due_date', 'priority', 'assigned_to_id'] as const;

/**
 * An approver's edit of a subtask: title, description, due date, priority, and the assignee (the
 * current one chosen, listed first, the crew's matches below). Only what changed is sent; the
 * server records each change. Work sent for approval or approved keeps its assignee (the shared
 * rule the server holds too): the assignee is shown fixed, with why.
 */
export function SubtaskEditForm({ subtask, findAssignees, onDone }: { subtask: Subtask; findAssignees: ListSearch<User>; onDone: (saved: boolean) => void }) {
  const { t } = useTranslation();
  const update = useUpdateSubtask();
  const [failure, setFailure] = useState<string | null>(null);
  const initial: Values = { name: subtask.name, description: subtask.description, due_date: subtask.due_date ?? '', priority: subtask.priority, assigned_to_id: subtask.assigned_to_id === null ? '' : String(subtask.assigned_to_id) };
  const form = useForm<Values>({ defaultValues: initial });
  const projectDates = useProjectDates(subtask.major_task.project.id);
  const dueDates = useDueDateConfirm();
  const messageText = useMessageText();
  const assigneeFixed = assigneeChangeRefusal(subtask.status);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const unchanged = (field: string, value: string) => value === '' || value === initial[field as keyof Values];
    const changed = Object.fromEntries(Object.entries(values).filter(([field, value]) => !unchanged(field, value))) as UpdateSubtaskInput;
    if (Object.keys(changed).length === 0) return onDone(false);
    const parsed = updateSubtaskInput.safeParse(changed);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) form.setError(String(issue.path[0] ?? 'name') as keyof Values, { message: issue.message });
      return;
    }
    // A new due date in the past or outside the project's dates is saved only once confirmed.
    if (parsed.data.due_date !== undefined && !(await dueDates.check([{ dueDate: parsed.data.due_date }], projectDates))) return;
    try {
      // Handing the work to someone else is decided on its state as shown: not once it was sent or approved meanwhile.
      const seen = changed.assigned_to_id === undefined ? {} : { expected_status: subtask.status, expected_assigned_to_id: subtask.assigned_to_id };
      await update.mutateAsync({ id: subtask.id, ...changed, ...seen, subject: subtask.name });
      onDone(true);
    } catch (error) {
      if (!applyFieldErrors<Values>(error, form.setError, FIELDS)) setFailure(t('record.saveFailed', { detail: error instanceof ApiError ? error.detail : String(error) }));
    }
  });
  const { errors } = form.formState;

  return (
    <form onSubmit={submit} noValidate className="space-y-4 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
      {dueDates.dialog}
      {failure && <Alert tone="error">{failure}</Alert>}
      <TextField label={t('record.title')} error={errors.name?.message} {...form.register('name')} />
      <TextAreaField label={t('record.description')} error={errors.description?.message} {...form.register('description')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Controller control={form.control} name="due_date" render={({ field: date }) => <DateField label={t('record.dueDate')} error={errors.due_date?.message} {...date} />} />
        <PrioritySelect error={errors.priority?.message} {...form.register('priority')} />
      </div>
      {assigneeFixed ? (
        <SelectField label={t('taskBoard.assignee')} disabled hint={messageText(assigneeFixed)} value={initial.assigned_to_id}>
          <option value={initial.assigned_to_id}>{subtask.assigned_to ? personLabel(subtask.assigned_to) : t('common.notAvailable')}</option>
        </SelectField>
      ) : (
        // Stacked: in the drawer two columns cut a long name short.
        <AssigneePicker
          className="grid gap-4"
          find={findAssignees}
          pinned={subtask.assigned_to ? { value: subtask.assigned_to.id, label: t('record.currentAssignee', { name: personLabel(subtask.assigned_to) }) } : undefined}
          error={errors.assigned_to_id?.message} onSearch={() => form.setValue('assigned_to_id', '')} {...form.register('assigned_to_id')}
        />
      )}
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={() => onDone(false)}>
          {t('record.cancel')}
        </Button>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {t('record.save')}
        </Button>
      </div>
    </form>
  );
}
