import type { Subtask } from '@siteboard/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import type { PagedListState } from '../../../lib/lists';
import { useUpdateSubtask } from '../api/update-subtask';
import { SubtaskListTable } from './subtask-list-table';

type Decision = 'approve' | 'decline';

const DECISIONS = {
  approve: { status: 'completed', success: 'taskBoard.approved', failure: 'taskBoard.approveFailed' },
  decline: { status: 'ongoing', success: 'taskBoard.declined', failure: 'taskBoard.declineFailed' },
} as const;

/** Subtasks waiting for this manager, a page at a time, each approved (completed) or declined (back to ongoing) at once. */
export function PendingApprovalsTable({ list, empty }: { list: PagedListState<Subtask>; empty: string }) {
  const { t } = useTranslation();
  const update = useUpdateSubtask();
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);

  const decide = async (subtask: Subtask, decision: Decision) => {
    const { status, success, failure } = DECISIONS[decision];
    setBusyId(subtask.id);
    try {
      await update.mutateAsync({ id: subtask.id, status });
      setMessage({ tone: 'success', text: t(success) });
    } catch {
      // A failure replaces any earlier success: the two never show together.
      setMessage({ tone: 'error', text: t(failure) });
    } finally {
      setBusyId(null);
    }
  };

  return (
    <div className="space-y-3">
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      <SubtaskListTable
        subtasks={list.items}
        more={list}
        columns={['project', 'majorTask', 'subtaskTitle', 'teamMember', 'dueDate']}
        label={t('taskBoard.pendingApprovals')}
        empty={empty}
        action={{
          header: t('taskBoard.column.action'),
          render: (subtask) => (
            <div className="flex flex-wrap gap-2">
              <Button className="px-3 py-1.5" disabled={busyId === subtask.id} onClick={() => void decide(subtask, 'approve')}>
                {t('taskBoard.approve')}
              </Button>
              <Button variant="secondary" className="px-3 py-1.5" disabled={busyId === subtask.id} onClick={() => void decide(subtask, 'decline')}>
                {t('taskBoard.decline')}
              </Button>
            </div>
          ),
        }}
      />
    </div>
  );
}
