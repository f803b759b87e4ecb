import { isOngoingStatus, PROJECT_STATUSES, type DashboardSummary } from '@siteboard/shared';
import type { ServiceContext } from '../../platform';
import { countProjects } from '../projects/projects.queries';
import { pendingApprovalsFilter, tasksDueTodayFilter } from '../tasks/tasks.rules';
import { countSubtasks } from '../tasks/tasks.queries';

const ONGOING = PROJECT_STATUSES.filter(isOngoingStatus);

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
