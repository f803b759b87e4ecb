import { TEAM_MAX_LIMIT, type TeamMember, type TeamWorkloadItem, type teamListQuery, type upsertTeamMemberInput } from '@siteboard/shared';
import type { z } from 'zod';
import { type ServiceContext, fieldError, NotFoundError } from '../../platform';
import type { ListExport } from '../../lib/exports';
import { pagedBatches, type Page } from '../../lib/lists';
import { assertActiveManager } from './users.service';
import { lockActiveMembers, updateUserRow } from './users.queries';
import { USER_NOT_FOUND } from './users.rules';
import { listTeamMembers, listTeamWorkload, upsertTeamMember } from './team.queries';
import { TEAM_WORKLOAD_CSV_COLUMNS } from './team.csv';
import { TEAM_WORKLOAD_SHEET_COLUMNS } from './team.xlsx';

type UpsertTeamMember = z.output<typeof upsertTeamMemberInput>;
type TeamListQuery = z.output<typeof teamListQuery>;

export const NOT_A_TEAM_MEMBER = 'This user is not a team member.';

/** An admin sees the company's team members; a manager sees their own team. */
export function listTeamMembersFor(ctx: ServiceContext, page: TeamListQuery): Promise<Page<TeamMember>> {
  const filter = ctx.user.role === 'manager' ? { managerId: ctx.user.id } : {};
  return listTeamMembers(ctx.db, ctx.user.companyId, filter, page);
}

/** The caller's (a manager's) own team with each member's ongoing work, least loaded first. */
export function listTeamWorkloadFor(ctx: ServiceContext, page: TeamListQuery): Promise<Page<TeamWorkloadItem>> {
  return listTeamWorkload(ctx.db, ctx.user.companyId, ctx.user.id, page);
}

/** The team's workload as a file: one team member a row, in the list's order, every page of it. */
export function teamWorkloadExport(ctx: ServiceContext): ListExport<TeamWorkloadItem> {
  return {
    name: 'team-workload',
    title: 'Team Workload',
    csv: TEAM_WORKLOAD_CSV_COLUMNS,
    sheet: TEAM_WORKLOAD_SHEET_COLUMNS,
    batches: pagedBatches((page) => listTeamWorkloadFor(ctx, page), TEAM_MAX_LIMIT),
  };
}

/** Creates or updates a team member's record; their user row gets the same manager, so the two never disagree. */
export async function upsertTeamMemberRecord(ctx: ServiceContext, input: UpsertTeamMember): Promise<{ created: boolean; record: TeamMember }> {
  const { companyId } = ctx.user;
  return ctx.db.transaction(async (tx) => {
    const [user] = await lockActiveMembers(tx, companyId, [input.user_id]);
    if (!user) throw new NotFoundError(USER_NOT_FOUND);
    if (user.role !== 'team_member') throw fieldError('user_id', NOT_A_TEAM_MEMBER);
    await assertActiveManager(tx, companyId, input.manager_id);
    const { created } = await upsertTeamMember(tx, { companyId, userId: user.id, managerId: input.manager_id, performanceScore: input.performance_score });
    await updateUserRow(tx, companyId, user.id, { managerId: input.manager_id });
    const [record] = (await listTeamMembers(tx, companyId, { userId: user.id })).items;
    return { created, record: record! };
  });
}
