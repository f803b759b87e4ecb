import { z } from 'zod';
import { missingLogsSchema } from './daily-logs';
import { DAILY_LOG_PROJECTS_MAX_LIMIT, USERS_MAX_LIMIT } from './list-sizes';
import { projectSchema } from './projects';
import { userSchema } from './users';


const firstPage = <T extends z.ZodTypeAny>(item: T) =>
  z.object({
    items: z.array(item),
    /** How many match in all (the list call's X-Total-Count). */
    total: z.number().int(),
  });

/**
 * GET /api/admin-dashboard/ (beside the spec's list calls, which stay): what the admin dashboard
 * shows first, in one answer, each part exactly the first page its list call would give, so a
 * phone paints the whole dashboard after one round trip (decision record 068).
 */
export const adminDashboardSchema = z.object({
  /** GET /api/users/?limit=50: the active users by e-mail. */
  users: firstPage(userSchema),
  /** GET /api/users/?role=manager&limit=200: the managers a user or project can report to. */
  managers: z.array(userSchema).max(USERS_MAX_LIMIT),
  /** GET /api/projects/?status=planned,ongoing&order=newest&limit=10. */
  ongoing_projects: firstPage(projectSchema),
  /** GET /api/projects/?status=completed&order=newest&limit=10. */
  completed_projects: firstPage(projectSchema),
  /** GET /api/daily-logs/missing/?days=14&limit=100: open projects' days without a signed log. */
  missing_logs: firstPage(missingLogsSchema.describe(`At most ${DAILY_LOG_PROJECTS_MAX_LIMIT} projects`)),
});
export type AdminDashboard = z.infer<typeof adminDashboardSchema>;
