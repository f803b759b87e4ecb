import type { Subtask } from '@siteboard/shared';
import type { PagedListQuery } from '../../../lib/lists';
import { getPendingApprovalPagesQuery } from '../api/get-pending-approvals';
import { getSubtaskPagesQuery } from '../api/get-subtasks';
import { getTasksDueTodayPagesQuery } from '../api/get-tasks-due-today';
import type { SubtaskColumn } from './subtask-list-table';

export type Panel = 'dueToday' | 'pending' | 'mine';

export type Board = 'manager' | 'team_member';

const OWN_COLUMNS: SubtaskColumn[] = ['project', 'majorTask', 'subtaskTitle', 'dueDate', 'status'];

/** The team member's tables have no assignee column: every row is theirs (spec §2). */
export const PANELS: Record<Board, Record<Panel, { label: string; empty: string; columns: SubtaskColumn[]; caption?: string }>> = {
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
export function panelQuery(board: Board, panel: Panel): PagedListQuery<Subtask> {
  if (panel === 'dueToday') return getTasksDueTodayPagesQuery();
  if (panel === 'mine') return getSubtaskPagesQuery({ assigned_to: 'me' });
  return board === 'manager' ? getPendingApprovalPagesQuery() : getSubtaskPagesQuery({ assigned_to: 'me', status: 'pending_approval' });
}

/** The team member's ongoing subtasks in active projects, soonest due (so overdue) first: their phone's first list. */
export const openWorkQuery = () => getSubtaskPagesQuery({ assigned_to: 'me', status: 'ongoing', project_status: 'ongoing,planned' });
