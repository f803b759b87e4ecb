import { isProjectManager, type MajorTaskSummary } from '@siteboard/shared';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { DateField, SelectField, TextField } from '../../../components/ui/form-field';
import { personLabel } from '../../../components/ui/person-text';
import { SearchSelect } from '../../../components/ui/search-select';
import type { ListSearch } from '../../../lib/lists';
import { useAuth } from '../../../lib/auth';
import { useFailureMessage } from '../../../lib/failure-message';
import { useCreatePinnedSubtask } from '../api/create-pinned-subtask';
import { useAssignees } from '../api/get-assignees';

interface Props {
  /** The server's search among the project's major tasks. */
  findMajorTasks: ListSearch<MajorTaskSummary>;
  pin: { sheet_id: number; x: number; y: number };
  today: string;
  /** The project's manager: only they may give a due date already past (decideNewSubtask). */
  projectManagerId: number | null;
  onDone: () => void;
  /** The point was chosen with the keyboard: it goes on to the form's first field. */
  autoFocus?: boolean;
}

/** The manager tapped the sheet with "A new subtask here": what it is, under which major task, for whom, by when. */
export function NewPinnedSubtask({ findMajorTasks, pin, today, projectManagerId, onDone, autoFocus }: Props) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const mayBackdate = user !== null && isProjectManager(user, projectManagerId);
  const assignees = useAssignees(true);
  const create = useCreatePinnedSubtask();
  const failureMessage = useFailureMessage();
  const [name, setName] = useState('');
  // A project of one major task has it chosen (the picker's own first answer, not another request); 0 once a search cleared the choice.
  const firstMatches = useQuery(findMajorTasks('')).data;
  const [chosenMajorTaskId, setMajorTaskId] = useState<number>();
  const majorTaskId = chosenMajorTaskId ?? (firstMatches?.total === 1 ? firstMatches.items[0]!.id : 0);
  const [assignedToId, setAssignedToId] = useState(0);
  const [dueDate, setDueDate] = useState(today);
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ majorTaskId, name, assignedToId, dueDate, pin }, { onSuccess: onDone, onError: (cause) => setError(failureMessage(cause, { other: 'drawings.createFailed' })) });
  };

  return (
    <form onSubmit={submit} className="grid gap-3 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200 sm:grid-cols-2" aria-labelledby="new-pinned-heading">
      <h3 id="new-pinned-heading" className="font-semibold text-slate-900 sm:col-span-2">
        {t('drawings.newHere')}
      </h3>
      {error && (
        <div className="sm:col-span-2">
          <Alert tone="error">{error}</Alert>
        </div>
      )}
      <TextField label={t('drawings.newTitle')} autoFocus={autoFocus} value={name} required maxLength={200} onChange={(event) => setName(event.target.value)} />
      <SearchSelect
        className="grid gap-3 sm:col-span-2 sm:grid-cols-2"
        find={findMajorTasks}
        toOption={(major) => ({ value: major.id, label: major.name })}
        searchLabel={t('drawings.newMajorTaskSearch')}
        searchPlaceholder={t('drawings.newMajorTaskSearchPlaceholder')}
        onSearch={() => setMajorTaskId(0)}
        label={t('drawings.newMajorTask')}
        placeholder={t('drawings.newChooseMajorTask')}
        empty={t('drawings.newNoMajorTasks')}
        value={majorTaskId || ''}
        required
        onChange={(event) => setMajorTaskId(Number(event.target.value))}
      />
      <SelectField label={t('drawings.newAssignee')} value={assignedToId || ''} required onChange={(event) => setAssignedToId(Number(event.target.value))}>
        <option value="">{t('drawings.newChooseAssignee')}</option>
        {assignees.data?.map((user) => (
          <option key={user.id} value={user.id}>
            {personLabel(user)}
          </option>
        ))}
      </SelectField>
      <DateField label={t('drawings.newDueDate')} value={dueDate} min={mayBackdate ? undefined : today} required onChange={setDueDate} />
      <div className="flex gap-2 sm:col-span-2">
        <Button type="submit" disabled={create.isPending}>
          {t('drawings.newCreate')}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          {t('drawings.cancel')}
        </Button>
      </div>
    </form>
  );
}
