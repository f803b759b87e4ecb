import { useTranslation } from 'react-i18next';
import { ListLoadFailed } from '../../../components/ui/alert';
import { usePagedList } from '../../../lib/lists';
import { openWorkQuery, PANELS, panelQuery, type Board, type Panel } from './dashboard-lists';
import { PendingApprovalsTable } from './pending-approvals-table';
import { useSendForApproval } from './send-for-approval';
import { SubtaskListTable } from './subtask-list-table';

/** The team member's ongoing subtasks in active projects, soonest due (so overdue) first, each one tap from Send for Approval. */
export function OpenWork() {
  const { t } = useTranslation();
  const list = usePagedList(openWorkQuery());
  const sendForApproval = useSendForApproval();
  return (
    <div className="space-y-3">
      {list.query.isError && (
        <ListLoadFailed onRetry={() => void list.query.refetch()} />
      )}
      {sendForApproval.message}
      <SubtaskListTable
        subtasks={list.items}
        more={list}
        columns={['subtaskTitle', 'dueDate', 'project']}
        label={t('taskBoard.openWork')}
        empty={list.query.isPending ? t('app.loading') : t('taskBoard.empty.openWork')}
        action={sendForApproval.action}
      />
    </div>
  );
}

/** The open card's table: its list is loaded only while it is open. */
export function DashboardPanel({ board, panel }: { board: Board; panel: Panel }) {
  const { t } = useTranslation();
  const list = usePagedList(panelQuery(board, panel));
  const sendForApproval = useSendForApproval();
  const { label, empty: emptyKey, columns } = PANELS[board][panel];
  const empty = list.query.isPending ? t('app.loading') : t(emptyKey);
  const failed = list.query.isError && (
    <ListLoadFailed onRetry={() => void list.query.refetch()} />
  );
  if (panel === 'pending' && board === 'manager') {
    return (
      <>
        {failed}
        <PendingApprovalsTable list={list} empty={empty} />
      </>
    );
  }
  const action = panel === 'mine' ? sendForApproval.action : undefined;
  return (
    <div className="space-y-3">
      {failed}
      {action && sendForApproval.message}
      <SubtaskListTable subtasks={list.items} more={list} columns={columns} label={t(label)} empty={empty} action={action} />
    </div>
  );
}
