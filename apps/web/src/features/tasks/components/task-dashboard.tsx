import type { DashboardSummary, Subtask } from '@siteboard/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RetryAlert } from '../../../components/ui/alert';
import { StatCard } from '../../../components/ui/stat-card';
import { useMediaQuery } from '../../../lib/use-media-query';
import { prefetchPagedList, usePagedList, type PagedListQuery } from '../../../lib/lists';
import { useDashboardSummary } from '../api/get-dashboard-summary';
import { getPendingApprovalPagesQuery } from '../api/get-pending-approvals';
import { getSubtaskPagesQuery } from '../api/get-subtasks';
import { getTasksDueTodayPagesQuery } from '../api/get-tasks-due-today';
import { PendingApprovalsTable } from './pending-approvals-table';
import { useSendForApproval } from './send-for-approval';
import { SubtaskListTable, type SubtaskColumn } from './subtask-list-table';

type Panel = 'dueToday' | 'pending' | 'mine';

const PANEL_ID = 'dashboard-panel';

type Board = 'manager' | 'team_member';

const OWN_COLUMNS: SubtaskColumn[] = ['project', 'majorTask', 'subtaskTitle', 'dueDate', 'status'];

/** The team member's tables have no assignee column: every row is theirs (spec §2). */
const PANELS: Record<Board, Record<Panel, { label: string; empty: string; columns: SubtaskColumn[]; caption?: string }>> = {
  manager: {
    dueToday: { label: 'taskBoard.majorTasksToday', empty: 'taskBoard.empty.dueToday', columns: ['project', 'majorTask', 'subtaskTitle', 'assignee', 'dueDate', 'status'] },
    pending: { label: 'taskBoard.pendingApprovals', empty: 'taskBoard.empty.pendingApprovals', columns: [] },
    mine: { label: 'taskBoard.myTasks', empty: 'taskBoard.empty.myTasks', columns: OWN_COLUMNS },
  },
  team_member: {
    dueToday: { label: 'taskBoard.majorTasksToday', empty: 'taskBoard.empty.dueToday', columns: OWN_COLUMNS },
    // The spec names this card "Send for Approval"; its caption says it counts what already waits (it is no action).
    pending: { label: 'taskBoard.sendForApproval', empty: 'taskBoard.empty.awaitingApproval', columns: OWN_COLUMNS, caption: 'taskBoard.awaitingApprovalCaption' },
    mine: { label: 'taskBoard.myTasks', empty: 'taskBoard.empty.myTasks', columns: OWN_COLUMNS },
  },
};

/** Each panel's list, the one its card opens. The board never changes under a mounted dashboard. */
function panelQuery(board: Board, panel: Panel): PagedListQuery<Subtask> {
  if (panel === 'dueToday') return getTasksDueTodayPagesQuery();
  if (panel === 'mine') return getSubtaskPagesQuery({ assigned_to: 'me' });
  return board === 'manager' ? getPendingApprovalPagesQuery() : getSubtaskPagesQuery({ assigned_to: 'me', status: 'pending_approval' });
}

const SUMMARY_FIELD: Record<Panel, keyof DashboardSummary> = { dueToday: 'due_today', pending: 'pending', mine: 'mine' };

/**
 * The manager's and the team member's dashboard: a card per list with its live count, all the
 * counts from one request (the summary, reloaded with every task change and push); a card opens
 * its table below (one at a time, a page at a time, loaded when opened and fetched ahead when
 * the card is pointed at) and closes it again. `leadingCard` comes first (the projects card,
 * given the projects count). The manager's middle card is the approvals waiting for them, the
 * team member's the subtasks they sent for approval.
 */
export function TaskDashboard({ leadingCard, board }: { leadingCard: (projectCount: number | undefined) => ReactNode; board: Board }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const summary = useDashboardSummary();
  const panels = PANELS[board];
  const [open, setOpen] = useState<Panel | null>(null);
  // On a phone the team member's own work comes first: the cards shrink to one row above it.
  const crewPhone = useMediaQuery('(max-width: 639px)') && board === 'team_member';

  return (
    <div className={crewPhone ? 'space-y-4' : 'space-y-6'}>
      {summary.isError && (
        <RetryAlert onRetry={() => void summary.refetch()} retryLabel={t('common.retry')}>
          {t('taskBoard.loadFailed')}
        </RetryAlert>
      )}
      <div className={`grid gap-4 sm:grid-cols-2 xl:grid-cols-4 ${crewPhone ? 'compact-cards grid-cols-4 gap-2' : ''}`}>
        {leadingCard(summary.data?.ongoing_projects)}
        {(Object.keys(panels) as Panel[]).map((panel) => (
          <StatCard
            key={panel}
            label={t(panels[panel].label)}
            count={summary.data?.[SUMMARY_FIELD[panel]]}
            caption={panels[panel].caption && t(panels[panel].caption)}
            expanded={open === panel}
            controls={PANEL_ID}
            onToggle={() => setOpen((value) => (value === panel ? null : panel))}
            onIntent={() => void prefetchPagedList(queryClient, panelQuery(board, panel))}
          />
        ))}
      </div>
      {open && (
        <section id={PANEL_ID} aria-labelledby={`${PANEL_ID}-title`} className="space-y-3">
          <h2 id={`${PANEL_ID}-title`} className="text-lg font-semibold text-ink">
            {t(panels[open].label)}
          </h2>
          <DashboardPanel key={open} board={board} panel={open} />
        </section>
      )}
      {crewPhone && !open && (
        <section aria-labelledby="open-work-title" className="space-y-3">
          <h2 id="open-work-title" className="text-lg font-semibold text-ink">
            {t('taskBoard.myTasks')}
          </h2>
          <OpenWork />
        </section>
      )}
    </div>
  );
}

/** The team member's ongoing subtasks in active projects, soonest due (so overdue) first, each one tap from Send for Approval. */
function OpenWork() {
  const { t } = useTranslation();
  const list = usePagedList(getSubtaskPagesQuery({ assigned_to: 'me', status: 'ongoing', project_status: 'ongoing,planned' }));
  const sendForApproval = useSendForApproval();
  return (
    <div className="space-y-3">
      {list.query.isError && (
        <RetryAlert onRetry={() => void list.query.refetch()} retryLabel={t('common.retry')}>
          {t('taskBoard.loadFailed')}
        </RetryAlert>
      )}
      {sendForApproval.message}
      <SubtaskListTable
        subtasks={list.items}
        more={list}
        columns={['subtaskTitle', 'dueDate', 'project']}
        label={t('taskBoard.myTasks')}
        empty={list.query.isPending ? t('app.loading') : t('taskBoard.empty.myTasks')}
        action={sendForApproval.action}
      />
    </div>
  );
}

/** The open card's table: its list is loaded only while it is open. */
function DashboardPanel({ board, panel }: { board: Board; panel: Panel }) {
  const { t } = useTranslation();
  const list = usePagedList(panelQuery(board, panel));
  const sendForApproval = useSendForApproval();
  const { label, empty: emptyKey, columns } = PANELS[board][panel];
  const empty = list.query.isPending ? t('app.loading') : t(emptyKey);
  const failed = list.query.isError && (
    <RetryAlert onRetry={() => void list.query.refetch()} retryLabel={t('common.retry')}>
      {t('taskBoard.loadFailed')}
    </RetryAlert>
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
