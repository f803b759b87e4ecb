import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';

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
  /** The admin dashboard's first pages, which the page copies into each list's own cache. */
  adminDashboard: ['admin-dashboard'],
  /** Projects' daily logs: the days, the lists, the projects they are kept for, the days owed. */
  dailyLogs: ['daily-logs'],
  /** Projects' drawings: their sheets and versions (pins live under subtasks). */
  sheets: ['sheets'],
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
  return Promise.all(SUBTASK_CHANGE_KEYS.map((queryKey) => invalidateKeepingNextPages(queryClient, queryKey)));
}

/** Is this paged list loading its next page (Show More) now? */
const loadingNextPage = (query: Query) => query.state.fetchStatus === 'fetching' && query.state.fetchMeta?.fetchMore !== undefined;

/**
 * Marks the answers under `queryKey` stale and reloads the shown ones, as `invalidateQueries`
 * does, except that a list loading its next page finishes that page first and reloads after it:
 * a reload started meanwhile would cancel the page and reload only the pages it had, losing the
 * Show More the user pressed (a task notification arriving at that moment did).
 */
function invalidateKeepingNextPages(queryClient: QueryClient, queryKey: QueryKey) {
  const cache = queryClient.getQueryCache();
  const loadingMore = cache.findAll({ queryKey, predicate: loadingNextPage });
  return Promise.all([
    queryClient.invalidateQueries({ queryKey, predicate: (query) => !loadingMore.includes(query) }),
    ...loadingMore.map(async (query) => {
      await new Promise<void>((resolve) => {
        const unsubscribe = cache.subscribe((event) => {
          if (event.query !== query || (event.type !== 'removed' && query.state.fetchStatus === 'fetching')) return;
          unsubscribe();
          resolve();
        });
      });
      await queryClient.invalidateQueries({ queryKey: query.queryKey, exact: true });
    }),
  ]);
}

/** Is this cached value a subtask (as the API answers one: its id and its major task's)? */
export function isSubtaskRecord(value: unknown, id?: number): value is { id: number; major_task_id: number } & Record<string, unknown> {
  return value !== null && typeof value === 'object' && 'major_task_id' in value && (id === undefined || (value as { id?: unknown }).id === id);
}

/** `data` with subtask `id` changed by `patch` wherever it stands (one subtask, a list, pages, a project's tasks); the same object where it is not. */
function withSubtaskPatched(data: unknown, id: number, patch: Record<string, unknown>, depth = 0): unknown {
  if (data === null || typeof data !== 'object' || depth > 6) return data;
  if (isSubtaskRecord(data, id)) return { ...data, ...patch };
  if (Array.isArray(data)) {
    let changed = false;
    const next = data.map((item) => {
      const patched = withSubtaskPatched(item, id, patch, depth + 1);
      changed ||= patched !== item;
      return patched;
    });
    return changed ? next : data;
  }
  let next: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(data)) {
    const patched = withSubtaskPatched(value, id, patch, depth + 1);
    if (patched !== value) (next ??= { ...(data as Record<string, unknown>) })[key] = patched;
  }
  return next ?? data;
}

const SUBTASK_HOLDERS = [queryRoots.subtasks, queryRoots.pendingApprovals, queryRoots.tasksDueToday, queryRoots.projects] as const;

/**
 * Shows a change made on this device before the server has it (a write waiting in the offline
 * queue): the subtask's fields are changed in every cached answer that holds it, so each screen
 * shows the task as it will be (sent for approval: no second Send button). The queue reloads
 * everything once the server has taken the write.
 */
export function patchSubtaskInCache(queryClient: QueryClient, id: number, patch: Record<string, unknown>) {
  for (const queryKey of SUBTASK_HOLDERS) {
    queryClient.setQueriesData({ queryKey }, (data: unknown) => withSubtaskPatched(data, id, patch));
  }
}

/**
 * Subtask `id` wherever it stands in a cached answer (one subtask, a list, pages, a project's
 * tasks), the first copy `accept` takes.
 */
export function findSubtaskIn(data: unknown, id: number, accept: (subtask: Record<string, unknown>) => boolean = () => true, depth = 0): Record<string, unknown> | undefined {
  if (data === null || typeof data !== 'object' || depth > 6) return undefined;
  if (isSubtaskRecord(data, id) && accept(data)) return data;
  for (const value of Array.isArray(data) ? data : Object.values(data)) {
    const found = findSubtaskIn(value, id, accept, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Subtask `id` as some cached answer holds it whole (a list row: its major task and project too), if any does. */
export function findCachedSubtask(queryClient: QueryClient, id: number): unknown {
  const whole = (subtask: Record<string, unknown>) => Boolean((subtask.major_task as { project?: unknown } | undefined)?.project);
  for (const queryKey of SUBTASK_HOLDERS) {
    for (const [, data] of queryClient.getQueriesData({ queryKey })) {
      const found = findSubtaskIn(data, id, whole);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
