import { SUBTASK_STATUSES, type Subtask, type SubtaskStatus } from '@siteboard/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { StatusBadge } from '../../../components/ui/badges';
import { useUpdateSubtask } from '../api/update-subtask';
import { SubtaskListTable } from './subtask-list-table';

/**
 * A major task's subtasks. Where `canChange` allows, the status is a dropdown that saves at once;
 * `onChanged` reloads the screen's data before the dropdown lets go of the chosen value.
 */
export function SubtaskTable({ subtasks, canChange, onChanged }: { subtasks: Subtask[]; canChange: (subtask: Subtask) => boolean; onChanged: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const update = useUpdateSubtask();
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [saving, setSaving] = useState<{ id: number; status: SubtaskStatus } | null>(null);

  const changeStatus = async (subtask: Subtask, status: SubtaskStatus) => {
    setSaving({ id: subtask.id, status });
    try {
      await update.mutateAsync({ id: subtask.id, status });
      setMessage({ tone: 'success', text: t('taskBoard.statusUpdated') });
      await onChanged();
    } catch {
      setMessage({ tone: 'error', text: t('taskBoard.statusFailed') });
    } finally {
      setSaving(null);
    }
  };

  const renderStatus = (subtask: Subtask) =>
    canChange(subtask) ? (
      <select
        aria-label={t('taskBoard.statusOf', { name: subtask.name })}
        className="rounded-lg border border-slate-300 bg-white px-2 py-1 text-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
        value={saving?.id === subtask.id ? saving.status : subtask.status}
        disabled={saving?.id === subtask.id}
        onChange={(event) => void changeStatus(subtask, event.target.value as SubtaskStatus)}
      >
        {SUBTASK_STATUSES.map((status) => (
          <option key={status} value={status}>
            {t(`status.${status}`)}
          </option>
        ))}
      </select>
    ) : (
      <StatusBadge status={subtask.status} />
    );

  return (
    <div className="space-y-3">
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
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
