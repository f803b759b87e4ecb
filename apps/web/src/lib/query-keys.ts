import type { QueryClient } from '@tanstack/react-query';

/**
 * The first part of every cached answer's key. Each API file builds its keys on one of these, so
 * that a change can reload everything it may have changed by root, each loaded page included.
 */
export const queryRoots = {
  subtasks: ['subtasks'],
  pendingApprovals: ['pending-approvals'],
  tasksDueToday: ['tasks-due-today'],
  projects: ['projects'],
  teamWorkload: ['team-workload'],
  teamAppraisal: ['team-appraisal'],
  users: ['users'],
  notifications: ['notifications'],
  /** A subtask's history (its timeline). */
  activity: ['subtask-activity'],
  /** The photos on subtasks. */
  photos: ['subtask-photos'],
  /** The dashboard cards' counts. */
  dashboardSummary: ['dashboard-summary'],
} as const;

/**
 * What a subtask written here or announced by a push may have changed: every task list, the
 * projects (an opened project's major tasks, their progress), the team's workload and appraisal.
 */
export const SUBTASK_CHANGE_KEYS = [
  queryRoots.subtasks,
  queryRoots.dashboardSummary,
  queryRoots.activity,
  queryRoots.photos,
  queryRoots.pendingApprovals,
  queryRoots.tasksDueToday,
  queryRoots.projects,
  queryRoots.teamWorkload,
  queryRoots.teamAppraisal,
] as const;

/** Reloads everything a subtask change may have changed; resolves once the shown lists have their new data. */
export function invalidateAfterSubtaskChange(queryClient: QueryClient) {
  return Promise.all(SUBTASK_CHANGE_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
