import type { Subtask } from '@siteboard/shared';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import type { PagedListState } from '../../../lib/lists';
import { SubtaskListTable } from './subtask-list-table';
import { useSubtaskStatusChange } from './use-subtask-status-change';

const DECISIONS = {
  approve: { status: 'completed', texts: { success: 'taskBoard.approved', failure: 'taskBoard.approveFailed' } },
  decline: { status: 'ongoing', texts: { success: 'taskBoard.declined', failure: 'taskBoard.declineFailed' } },
} as const;

/** Subtasks waiting for this manager, a page at a time, each approved (completed) or declined (back to ongoing) at once. */
export function PendingApprovalsTable({ list, empty }: { list: PagedListState<Subtask>; empty: string }) {
  const { t } = useTranslation();
  const { change, saving, message } = useSubtaskStatusChange();
  const decide = (subtask: Subtask, decision: keyof typeof DECISIONS) => change(subtask, DECISIONS[decision].status, DECISIONS[decision].texts);

  return (
    <div className="space-y-3">
      {message}
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
              <Button className="px-3 py-1.5" disabled={saving?.id === subtask.id} onClick={() => void decide(subtask, 'approve')}>
                {t('taskBoard.approve')}
              </Button>
              <Button variant="secondary" className="px-3 py-1.5" disabled={saving?.id === subtask.id} onClick={() => void decide(subtask, 'decline')}>
                {t('taskBoard.decline')}
              </Button>
            </div>
          ),
        }}
      />
    </div>
  );
}
