import { zodResolver } from '@hookform/resolvers/zod';
import { createMajorTaskInput, type Project, type User } from '@siteboard/shared';
import { useState } from 'react';
import { Controller, type Path, useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { DraftNotice } from '../../../components/ui/draft-notice';
import { DateField, TextField } from '../../../components/ui/form-field';
import { useLeaveGuard } from '../../../components/ui/leave-guard';
import { applyFieldErrors } from '../../../lib/api-client';
import { useDraftOf, useFormDraft } from '../../../lib/form-draft';
import { useMessageText } from '../../../lib/use-message-text';
import type { ListSearch } from '../../../lib/lists';
import { useCreateMajorTask } from '../api/create-major-task';
import { useProjectDates } from '../api/get-project-dates';
import { AssigneePicker, ProjectPicker } from './pickers';
import { PrioritySelect } from './priority-select';
import { useDueDateConfirm } from './use-due-date-confirm';

type Input = z.input<typeof createMajorTaskInput>;
type Output = z.output<typeof createMajorTaskInput>;

const SUBTASK_FIELDS = ['name', 'assigned_to_id', 'due_date', 'priority'] as const;
const emptySubtask = (): Input['subtasks'][number] => ({ name: '', description: '', assigned_to_id: '', due_date: '', priority: 'medium' });
const EMPTY: Input = { project_id: '', name: '', description: '', subtasks: [emptySubtask()] };

/** "Create Major Task": a project that is not completed (searched on the server), a name, and one or more subtasks (spec §5). */
export function CreateMajorTaskForm({ findProjects, findAssignees }: { findProjects: ListSearch<Pick<Project, 'id' | 'name'>>; findAssignees: ListSearch<User> }) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const create = useCreateMajorTask();
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  // Kept on this device until sent or discarded; leaving through a link asks first.
  const draft = useFormDraft('create-major-task', EMPTY);
  const form = useForm<Input, unknown, Output>({ resolver: zodResolver(createMajorTaskInput), defaultValues: draft.initialValues });
  useDraftOf(draft, form);
  const leaveDialog = useLeaveGuard(draft.dirty, t('drafts.leaveDescription'));
  const rows = useFieldArray({ control: form.control, name: 'subtasks' });
  const { errors } = form.formState;
  const projectDates = useProjectDates(Number(form.watch('project_id')) || null);
  const dueDates = useDueDateConfirm();

  const onSubmit = form.handleSubmit(async (values) => {
    setMessage(null);
    // A date in the past or outside the project's dates is allowed, once confirmed.
    const several = values.subtasks.length > 1;
    if (!(await dueDates.check(values.subtasks.map((subtask, index) => ({ dueDate: subtask.due_date, number: several ? index + 1 : undefined })), projectDates))) return;
    try {
      await create.mutateAsync(values);
      draft.discard();
      setMessage({ tone: 'success', text: t('taskBoard.majorTaskCreated') });
    } catch (error) {
      const fields = ['project_id', 'name', 'description', ...rows.fields.flatMap((_, index) => SUBTASK_FIELDS.map((field) => `subtasks.${index}.${field}`))];
      applyFieldErrors<Record<string, unknown>>(error, (name, fieldError) => form.setError(name as Path<Input>, fieldError), fields);
      setMessage({ tone: 'error', text: t('taskBoard.majorTaskFailed') });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6">
      {dueDates.dialog}
      {leaveDialog}
      {message && <Alert tone={message.tone} focusOnShow={message.tone === 'success'}>{message.text}</Alert>}
      {draft.dirty && <DraftNotice restored={draft.restored} onDiscard={draft.discard} />}
      <div className="grid gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 md:grid-cols-2">
        <ProjectPicker
          className="grid gap-4 sm:grid-cols-2 md:col-span-2"
          find={findProjects}
          error={errors.project_id?.message}
          onSearch={() => form.setValue('project_id', '')}
          initialChoice={String(draft.initialValues.project_id ?? '')}
          {...form.register('project_id')}
        />
        <TextField label={t('taskBoard.majorTaskName')} error={errors.name?.message} {...form.register('name')} />
        <TextField label={t('taskBoard.description')} error={errors.description?.message} {...form.register('description')} />
      </div>

      {rows.fields.map((row, index) => {
        const rowErrors = errors.subtasks?.[index];
        return (
          <fieldset key={row.id} className="relative rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
            {/* Floated, the legend lays out like a heading inside the card instead of on its edge; the
                remove button floats beside it, and below it where the two do not fit on one line (a
                phone, a long language), never over it. */}
            <legend className="float-left mb-4 mr-3 py-2 text-base font-semibold text-ink">{t('taskBoard.subtaskNumber', { number: index + 1 })}</legend>
            {rows.fields.length > 1 && (
              <Button variant="ghost" className="float-right mb-4" onClick={() => rows.remove(index)}>
                {t('taskBoard.removeSubtask', { number: index + 1 })}
              </Button>
            )}
            <div className="clear-both grid gap-4 md:grid-cols-2">
              <div className="md:col-span-2">
                <TextField label={t('taskBoard.title')} error={rowErrors?.name?.message} {...form.register(`subtasks.${index}.name`)} />
              </div>
              <AssigneePicker
                find={findAssignees}
                error={rowErrors?.assigned_to_id?.message}
                onSearch={() => form.setValue(`subtasks.${index}.assigned_to_id`, '')}
                initialChoice={String(draft.initialValues.subtasks?.[index]?.assigned_to_id ?? '')}
                {...form.register(`subtasks.${index}.assigned_to_id`)}
              />
              <Controller control={form.control} name={`subtasks.${index}.due_date`} render={({ field: date }) => <DateField label={t('taskBoard.dueDate')} error={rowErrors?.due_date?.message} {...date} />} />
              <PrioritySelect error={rowErrors?.priority?.message} {...form.register(`subtasks.${index}.priority`)} />
            </div>
          </fieldset>
        );
      })}
      {(errors.subtasks?.message ?? errors.subtasks?.root?.message) && <Alert tone="error">{messageText(errors.subtasks?.message ?? errors.subtasks?.root?.message ?? '')}</Alert>}

      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" onClick={() => rows.append(emptySubtask())}>
          {t('taskBoard.addSubtaskRow')}
        </Button>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {t('taskBoard.createMajorTask')}
        </Button>
      </div>
    </form>
  );
}
