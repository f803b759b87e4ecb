import { canSubmitSubtask, SUBTASK_STATUSES, subtaskParties, type Subtask, type SubtaskStatus } from '@siteboard/shared';
import { useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '../../../components/ui/badges';
import { Button } from '../../../components/ui/button';
import { useAuth } from '../../../lib/auth';
import { SendForApprovalButton } from './send-for-approval';
import { SubtaskListTable } from './subtask-list-table';
import { useSubtaskStatusChange } from './use-subtask-status-change';

const STATUS_TEXTS = { success: 'taskBoard.statusUpdated', failure: 'taskBoard.statusFailed' };

/**
 * A major task's subtasks. Where `canChange` allows, the status is a dropdown (`StatusSelect`);
 * it holds the chosen value until the screen's data has reloaded. The assignee's own ongoing work
 * has Send for Approval (with photos and a note) right there, as on every list of theirs.
 */
export function SubtaskTable({ subtasks, canChange }: { subtasks: Subtask[]; canChange: (subtask: Subtask) => boolean }) {
  const { t } = useTranslation();
  const { change, saving, message } = useSubtaskStatusChange();
  const { user } = useAuth();

  const renderStatus = (subtask: Subtask, describedBy: string | undefined) =>
    canChange(subtask) ? (
      <StatusSelect subtask={subtask} describedBy={describedBy} saving={saving?.id === subtask.id ? saving.status : null} save={(status) => void change(subtask, status, STATUS_TEXTS)} />
    ) : user && canSubmitSubtask(user, subtaskParties(subtask)) ? (
      <SendForApprovalButton subtask={subtask} send={change} busy={saving !== null} describedBy={describedBy} />
    ) : (
      <StatusBadge status={subtask.status} />
    );

  return (
    <div className="space-y-3">
      {message}
      <SubtaskListTable
        subtasks={subtasks}
        columns={['title', 'assignee', 'dueDate', 'priority']}
        label={t('taskBoard.subtasks')}
        empty={t('taskBoard.noSubtasks')}
        action={{ header: t('taskBoard.column.status'), render: renderStatus }}
      />
    </div>
  );
}

/** Keys with which a closed native dropdown steps to another choice (arrows, Home/End, Page keys, typing a letter) rather than choosing. */
const stepsThroughChoices = (event: KeyboardEvent) => event.key !== 'Enter' && event.key !== 'Escape' && event.key !== 'Tab' && !event.altKey;

/**
 * A subtask's status as a native dropdown. A choice made with the pointer (or the open list's
 * Enter) saves at once; stepping through the closed dropdown with the keyboard, where the browser
 * reports every step as a change, only marks the choice: "Save status" beside it (or Enter) saves
 * it, Escape goes back. A keyboard user passing "Completed" on the way to another choice never
 * completes the task by accident.
 */
function StatusSelect({ subtask, describedBy, saving, save }: { subtask: Subtask; describedBy: string | undefined; saving: SubtaskStatus | null; save: (status: SubtaskStatus) => void }) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<SubtaskStatus | null>(null);
  const stepping = useRef(false);
  const select = useRef<HTMLSelectElement>(null);
  const commit = (status: SubtaskStatus) => {
    setChosen(null);
    if (status !== subtask.status) save(status);
  };
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <select
        ref={select}
        aria-label={t('taskBoard.statusOf', { name: subtask.name })}
        className="rounded-lg border border-slate-300 bg-white px-2 py-1 text-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
        value={saving ?? chosen ?? subtask.status}
        disabled={saving !== null}
        onKeyDown={(event) => {
          stepping.current = stepsThroughChoices(event);
          if (event.key === 'Enter' && chosen) {
            event.preventDefault();
            commit(chosen);
          } else if (event.key === 'Escape' && chosen) setChosen(null);
        }}
        onKeyUp={() => (stepping.current = false)}
        onChange={(event) => {
          const status = event.target.value as SubtaskStatus;
          if (stepping.current) setChosen(status === subtask.status ? null : status);
          else commit(status);
        }}
      >
        {SUBTASK_STATUSES.map((status) => (
          <option key={status} value={status}>
            {t(`status.${status}`)}
          </option>
        ))}
      </select>
      {chosen && (
        <Button
          size="sm"
          aria-describedby={describedBy}
          onClick={() => {
            // The button goes with the choice: focus stays on the dropdown it saved.
            select.current?.focus();
            commit(chosen);
          }}
        >
          {t('taskBoard.saveStatus')}
        </Button>
      )}
    </span>
  );
}
