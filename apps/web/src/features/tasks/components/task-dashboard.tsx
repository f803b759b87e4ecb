import type { Subtask } from '@siteboard/shared';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { StatCard } from '../../../components/ui/stat-card';
import { usePagedList, type PagedListState } from '../../../lib/lists';
import { getPendingApprovalPagesQuery } from '../api/get-pending-approvals';
import { getSubtaskPagesQuery, useSubtaskPages } from '../api/get-subtasks';
import { useTasksDueTodayPages } from '../api/get-tasks-due-today';
import { PendingApprovalsTable } from './pending-approvals-table';
import { useSendForApproval } from './send-for-approval';
import { SubtaskListTable, type SubtaskColumn } from './subtask-list-table';

type Panel = 'dueToday' | 'pending' | 'mine';

const PANEL_ID = 'dashboard-panel';

type Board = 'manager' | 'team_member';

const OWN_COLUMNS: SubtaskColumn[] = ['project', 'majorTask', 'subtaskTitle', 'dueDate', 'status'];

/** The team member's tables have no assignee column: every row is theirs (spec §2). */
const PANELS: Record<Board, Record<Panel, { label: string; empty: string; columns: SubtaskColumn[] }>> = {
  manager: {
    dueToday: { label: 'taskBoard.majorTasksToday', empty: 'taskBoard.empty.dueToday', columns: ['project', 'majorTask', 'subtaskTitle', 'assignee', 'dueDate', 'status'] },
    pending: { label: 'taskBoard.pendingApprovals', empty: 'taskBoard.empty.pendingApprovals', columns: [] },
    mine: { label: 'taskBoard.myTasks', empty: 'taskBoard.empty.myTasks', columns: OWN_COLUMNS },
  },
  team_member: {
    dueToday: { label: 'taskBoard.majorTasksToday', empty: 'taskBoard.empty.dueToday', columns: OWN_COLUMNS },
    pending: { label: 'taskBoard.sendForApproval', empty: 'taskBoard.empty.awaitingApproval', columns: OWN_COLUMNS },
    mine: { label: 'taskBoard.myTasks', empty: 'taskBoard.empty.myTasks', columns: OWN_COLUMNS },
  },
};

/**
 * The manager's and the team member's dashboard: a card per list with its live count (the server's
 * total); a card opens its table below (one at a time, a page at a time) and closes it again. `leadingCard` comes first (the projects
 * card). The manager's middle card is the approvals waiting for them, the team member's the
 * subtasks they sent for approval.
 */
export function TaskDashboard({ leadingCard, board }: { leadingCard: ReactNode; board: Board }) {
  const { t } = useTranslation();
  const isManager = board === 'manager';
  const lists: Record<Panel, PagedListState<Subtask>> = {
    dueToday: useTasksDueTodayPages(),
    // The board never changes under a mounted dashboard, so this is always the same list.
    pending: usePagedList(isManager ? getPendingApprovalPagesQuery() : getSubtaskPagesQuery({ assigned_to: 'me', status: 'pending_approval' })),
    mine: useSubtaskPages({ assigned_to: 'me' }),
  };
  const sendForApproval = useSendForApproval();
  const panels = PANELS[board];
  const [open, setOpen] = useState<Panel | null>(null);
  const failed = Object.values(lists).some((list) => list.query.isError);

  const renderPanel = (panel: Panel) => {
    const list = lists[panel];
    const empty = list.query.isPending ? t('app.loading') : t(panels[panel].empty);
    if (panel === 'pending' && isManager) return <PendingApprovalsTable list={list} empty={empty} />;
    const action = panel === 'mine' ? sendForApproval.action : undefined;
    return (
      <div className="space-y-3">
        {action && sendForApproval.message}
        <SubtaskListTable subtasks={list.items} more={list} columns={panels[panel].columns} label={t(panels[panel].label)} empty={empty} action={action} />
      </div>
    );
  };

  return (
    <div className="space-y-6">
      {failed && <Alert tone="error">{t('taskBoard.loadFailed')}</Alert>}
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {leadingCard}
        {(Object.keys(panels) as Panel[]).map((panel) => (
          <StatCard
            key={panel}
            label={t(panels[panel].label)}
            count={lists[panel].total}
            expanded={open === panel}
            controls={PANEL_ID}
            onToggle={() => setOpen((value) => (value === panel ? null : panel))}
          />
        ))}
      </div>
      {open && (
        <section id={PANEL_ID} aria-labelledby={`${PANEL_ID}-title`} className="space-y-3">
          <h2 id={`${PANEL_ID}-title`} className="text-lg font-semibold text-ink">
            {t(panels[open].label)}
          </h2>
          {renderPanel(open)}
        </section>
      )}
    </div>
  );
}
