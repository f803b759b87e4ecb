import {
  ADMIN_MISSING_LOGS_DAYS,
  ADMIN_USERS_PAGE_SIZE,
  DAILY_LOG_PROJECTS_MAX_LIMIT,
  isOngoingStatus,
  MAJOR_TASKS_PER_LISTED_PROJECT,
  PROJECT_PAGE_SIZE,
  PROJECT_STATUSES,
  SUBTASKS_PER_LISTED_MAJOR_TASK,
  USERS_MAX_LIMIT,
  type AdminDashboard,
  type DashboardSummary,
} from '@siteboard/shared';
import type { ServiceContext } from '../../platform';
import { listMissingLogs } from '../daily-logs/daily-logs.queries';
import { countProjects, listProjectRows } from '../projects/projects.queries';
import { pendingApprovalsFilter, tasksDueTodayFilter } from '../tasks/tasks.rules';
import { countSubtasks } from '../tasks/tasks.queries';
import { listActiveUsers } from '../users/users.queries';

const ONGOING = PROJECT_STATUSES.filter(isOngoingStatus);
const COMPLETED = PROJECT_STATUSES.filter((status) => !isOngoingStatus(status));

/**
 * The dashboard cards' counts in one answer, each counted with the very filter of the list its
 * card opens (so the two always agree): four counting statements, run side by side.
 */
export async function getDashboardSummary(ctx: ServiceContext): Promise<DashboardSummary> {
  const { companyId, id, role } = ctx.user;
  const [ongoingProjects, dueToday, pending, mine] = await Promise.all([
    countProjects(ctx.db, companyId, { statuses: ONGOING }),
    countSubtasks(ctx.db, companyId, tasksDueTodayFilter(ctx.user)),
    // The team member's card is what they sent for approval; the manager's what waits for them.
    countSubtasks(ctx.db, companyId, role === 'team_member' ? { assignedToId: id, status: 'pending_approval' } : pendingApprovalsFilter(ctx.user)),
    countSubtasks(ctx.db, companyId, { assignedToId: id }),
  ]);
  return { ongoing_projects: ongoingProjects, due_today: dueToday, pending, mine };
}

/**
 * The admin dashboard's first screen in one answer (decision record 068): each part is the very
 * statement its list call runs for its first page (same filter, order and page), so a later "Show
 * More" or search continues it exactly. Five statements, run side by side, however large the company.
 */
export async function getAdminDashboard(ctx: ServiceContext): Promise<AdminDashboard> {
  const { companyId } = ctx.user;
  // As GET /api/projects/ lists them, so the first page is the one its list call would answer.
  const projectPage = { order: 'newest', limit: PROJECT_PAGE_SIZE, offset: 0, expandMajorTasks: false, expansionBounds: { majorTasks: MAJOR_TASKS_PER_LISTED_PROJECT, subtasks: SUBTASKS_PER_LISTED_MAJOR_TASK } } as const;
  const [users, managers, ongoing, completed, missing] = await Promise.all([
    listActiveUsers(ctx.db, companyId, {}, { limit: ADMIN_USERS_PAGE_SIZE, offset: 0 }),
    listActiveUsers(ctx.db, companyId, { roles: ['manager'] }, { limit: USERS_MAX_LIMIT, offset: 0 }),
    listProjectRows(ctx.db, companyId, { statuses: ONGOING }, projectPage),
    listProjectRows(ctx.db, companyId, { statuses: COMPLETED }, projectPage),
    listMissingLogs(ctx.db, companyId, ADMIN_MISSING_LOGS_DAYS, { limit: DAILY_LOG_PROJECTS_MAX_LIMIT, offset: 0 }),
  ]);
  return { users, managers: managers.items, ongoing_projects: ongoing, completed_projects: completed, missing_logs: missing };
}
