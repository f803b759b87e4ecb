import { useTranslation } from 'react-i18next';
import { RetryAlert } from '../../../components/ui/alert';
import { DownloadListButtons } from '../../../components/ui/download-list-buttons';
import { SectionHeading } from '../../../components/ui/section-heading';
import { usePagedList } from '../../../lib/lists';
import { getPendingApprovalPagesQuery } from '../api/get-pending-approvals';
import { useSubtaskPages } from '../api/get-subtasks';
import { PendingApprovalsTable } from './pending-approvals-table';
import { useSendForApproval } from './send-for-approval';
import { SubtaskListTable } from './subtask-list-table';

/** My Tasks: the subtasks assigned to me (a team member sends them for approval here) and, for a manager, the ones waiting for my decision. */
export function MyTaskLists({ showApprovals }: { showApprovals: boolean }) {
  const { t } = useTranslation();
  const mine = useSubtaskPages({ assigned_to: 'me' });
  const pending = usePagedList(getPendingApprovalPagesQuery(), { enabled: showApprovals });
  const sendForApproval = useSendForApproval();

  return (
    <div className="space-y-8">
      {(mine.query.isError || pending.query.isError) && (
        <RetryAlert onRetry={() => void Promise.all([mine.query.isError && mine.query.refetch(), pending.query.isError && pending.query.refetch()])} retryLabel={t('common.retry')}>
          {t('myTasks.loadFailed')}
        </RetryAlert>
      )}
      <section aria-labelledby="assigned-tasks" className="space-y-3">
        <SectionHeading id="assigned-tasks" action={<DownloadListButtons path="/api/subtasks/" query={{ assigned_to: 'me' }} subject={t('manager.myTasksTitle')} />}>
          {t('manager.myTasksTitle')}
        </SectionHeading>
        {sendForApproval.message}
        <SubtaskListTable
          subtasks={mine.items}
          more={mine}
          action={sendForApproval.action}
          columns={['project', 'majorTask', 'subtaskTitle', 'dueDate', 'status']}
          label={t('manager.myTasksTitle')}
          empty={mine.query.isPending ? t('app.loading') : t('myTasks.empty')}
        />
      </section>
      {showApprovals && (
        <section aria-labelledby="pending-approvals" className="space-y-3">
          <SectionHeading id="pending-approvals" action={<DownloadListButtons path="/api/pending-approvals/" subject={t('taskBoard.pendingApprovals')} />}>
            {t('taskBoard.pendingApprovals')}
          </SectionHeading>
          <PendingApprovalsTable list={pending} empty={pending.query.isPending ? t('app.loading') : t('taskBoard.empty.pendingApprovals')} />
        </section>
      )}
    </div>
  );
}
