import { useTranslation } from 'react-i18next';
import { useConfirm } from '../../../components/ui/confirm-dialog';
import { formatDate, readerToday } from '../../../lib/format';
import type { ProjectDates } from '../api/get-project-dates';
import { dueDateConcerns, type DueDateConcern } from '../tasks.rules';

/**
 * Before a subtask is saved with a due date in the past or outside its project's dates: the
 * dialog names each such date, and saving goes on only if the person confirms. `check` resolves
 * true at once when there is nothing to ask.
 */
export function useDueDateConfirm() {
  const { t } = useTranslation();
  const confirm = useConfirm({ title: t('taskBoard.dueDateCheckTitle'), confirmLabel: t('taskBoard.dueDateCheckSave'), cancelLabel: t('taskBoard.dueDateCheckChange') });

  const describe = (dueDate: string, concern: DueDateConcern): string => {
    const date = formatDate(dueDate) ?? dueDate;
    if (concern.kind === 'past') return t('taskBoard.dueDatePast', { date });
    if (concern.kind === 'beforeStart') return t('taskBoard.dueDateBeforeStart', { date, start: formatDate(concern.start) ?? concern.start });
    return t('taskBoard.dueDateAfterEnd', { date, end: formatDate(concern.end) ?? concern.end });
  };

  /** `dates`: each due date being saved, with the subtask's number where the form has several. */
  const check = (dates: { dueDate: string; number?: number }[], project: ProjectDates | null): Promise<boolean> => {
    const today = readerToday();
    const lines = dates.flatMap(({ dueDate, number }) =>
      dueDateConcerns(dueDate, today, project).map((concern) => (number === undefined ? describe(dueDate, concern) : t('taskBoard.dueDateOfSubtask', { number, text: describe(dueDate, concern) }))),
    );
    if (lines.length === 0) return Promise.resolve(true);
    return confirm.ask(
      <ul className="list-disc space-y-1 pl-5">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>,
    );
  };

  return { check, dialog: confirm.dialog };
}
