import { canSubmitSubtask, SUBTASK_STATUSES, subtaskParties, type Subtask, type SubtaskStatus } from '@siteboard/shared';
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '../../../components/ui/badges';
import { useAuth } from '../../../lib/auth';
import { SendForApprovalButton } from './send-for-approval';
import { SubtaskListTable } from './subtask-list-table';
import { useSubtaskStatusChange } from './use-subtask-status-change';

const STATUS_TEXTS = { success: 'taskBoard.statusUpdated', failure: 'taskBoard.statusFailed' };

/**
 * A major task's subtasks. Where `canChange` allows, the status is a dropdown that saves at once;
 * it holds the chosen value until the screen's data has reloaded. The assignee's own ongoing work
 * has Send for Approval (with photos and a note) right there, as on every list of theirs.
 */
export function SubtaskTable({ subtasks, canChange }: { subtasks: Subtask[]; canChange: (subtask: Subtask) => boolean }) {
  const { t } = useTranslation();
  const { change, saving, message } = useSubtaskStatusChange();
  const { user } = useAuth();

  const renderStatus = (subtask: Subtask) =>
    canChange(subtask) ? (
      <select
        aria-label={t('taskBoard.statusOf', { name: subtask.name })}
        className="rounded-lg border border-slate-300 bg-white px-2 py-1 text-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
        value={saving?.id === subtask.id ? saving.status : subtask.status}
        disabled={saving?.id === subtask.id}
        onChange={(event) => void change(subtask, event.target.value as SubtaskStatus, STATUS_TEXTS)}
      >
        {SUBTASK_STATUSES.map((status) => (
          <option key={status} value={status}>
            {t(`status.${status}`)}
          </option>
        ))}
      </select>
    ) : user && canSubmitSubtask(user, subtaskParties(subtask)) ? (
      <SendForApprovalButton subtask={subtask} send={change} busy={saving !== null} />
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
