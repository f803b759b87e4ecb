import { EMAIL_TAKEN, deleteUserQuery, idParams, userAsSeenBy, type User, type UserOpenWork, type createUserInput, type updateUserInput, type userListQuery } from '@siteboard/shared';
import type { z } from 'zod';
import { type DbOrTx, type Guard, type ServiceContext, foundInCompany, isUniqueViolation, ConflictError, fieldError, ForbiddenError, NotFoundError, ValidationError, type FieldErrors, settleChanges } from '../../platform';
import { events } from '../../lib/events';
import type { Page } from '../../lib/lists';
import { hashPassword } from '../../lib/passwords';
import { countPendingInvitationsTo } from '../auth/invitations.queries';
import { deleteFeed } from '../calendar/calendar.queries';
import { countWorkOf, reassignOpenWork } from '../tasks/tasks.queries';
import { deleteTeamMember, upsertTeamMember } from './team.queries';
import {
  ACTIVE_EMAIL_INDEX,
  countActiveReports,
  findActiveMember,
  findUser,
  insertUser,
  isEmailTaken,
  listActiveUsers,
  lockActiveMembers,
  revokeUserRefreshTokens,
  replacePassword,
  softDeleteUser,
  takeNextUserNumber,
  namesAStranger,
  updateUserRow,
  userExists,
} from './users.queries';
import {
  CANNOT_DELETE_SELF,
  CANNOT_EDIT_SELF,
  COMPANY_NOT_FOUND,
  MANAGER_HAS_INVITATIONS_DELETE,
  MANAGER_HAS_TEAM_DELETE,
  MANAGER_HAS_TEAM_ROLE,
  MANAGER_INVALID,
  REASSIGN_INVALID,
  USER_NOT_FOUND,
  isDemotion,
  openWorkConflict,
  managerLinkFor,
  planRoleChange,
  userCode,
} from './users.rules';

type UserListQuery = z.output<typeof userListQuery>;
type CreateUser = z.output<typeof createUserInput>;
type UpdateUser = z.output<typeof updateUserInput>;
type DeleteUserQuery = z.output<typeof deleteUserQuery>;

/** The caller's company's active users, filtered and paged as asked, each as the caller may see them (userAsSeenBy). */
export async function listUsers(ctx: ServiceContext, query: UserListQuery): Promise<Page<User>> {
  const { id, companyId, role } = ctx.user;
  const [page, managerId] = await Promise.all([
    listActiveUsers(ctx.db, companyId, { roles: query.role, search: query.search, teamOf: query.team_first ? id : undefined }, query),
    // Only a team member has a manager whose record shows them more (the mobile number).
    role === 'team_member' ? findActiveMember(ctx.db, companyId, id).then((viewer) => viewer?.managerId ?? null) : null,
  ]);
  const viewer = { id, role, managerId };
  return { ...page, items: page.items.map((user) => userAsSeenBy(viewer, user)) };
}

/** A manager or team member of the caller's company; a team member's record is created with them, or neither is. */
export async function createUser(ctx: ServiceContext, input: CreateUser): Promise<User> {
  const { companyId } = ctx.user;
  if (input.company_id != null && input.company_id !== companyId) throw new NotFoundError(COMPANY_NOT_FOUND);

  // Both checks before the (slow) hash, reported together so a form can mark both fields.
  const errors: FieldErrors = {};
  if (await isEmailTaken(ctx.db, companyId, input.email)) errors.email = [EMAIL_TAKEN];
  if (input.manager_id != null && (await findActiveMember(ctx.db, companyId, input.manager_id))?.role !== 'manager') {
    if (await namesAStranger(ctx.db, companyId, [input.manager_id])) throw new NotFoundError(USER_NOT_FOUND);
    errors.manager_id = [MANAGER_INVALID];
  }
  throwIfAny(errors);

  const passwordHash = await hashPassword(input.password);
  const managerId = managerLinkFor(input.role, input.manager_id);
  try {
    return await ctx.db.transaction(async (tx) => {
      if (input.manager_id != null) await assertActiveManager(tx, companyId, input.manager_id);
      const number = await takeNextUserNumber(tx, companyId);
      const { id } = await insertUser(tx, {
        companyId,
        email: input.email,
        fullName: input.full_name,
        passwordHash,
        role: input.role,
        code: userCode(input.role, number),
        managerId,
        designation: input.designation,
        mobileNumber: input.mobile_number,
        mustChangePassword: input.must_change_password ?? false,
      });
      if (managerId !== null) await upsertTeamMember(tx, { companyId, userId: id, managerId });
      return (await findUser(tx, companyId, id))!;
    });
  } catch (error) {
    // A concurrent creation with the same e-mail won the race between our check and our insert.
    if (isUniqueViolation(error, ACTIVE_EMAIL_INDEX)) throw fieldError('email', EMAIL_TAKEN);
    throw error;
  }
}

/** An admin's edit of another user; their team-member record follows their role and manager. */
export async function updateUser(ctx: ServiceContext, userId: number, input: UpdateUser): Promise<User> {
  const { companyId } = ctx.user;
  if (userId === ctx.user.id) throw new ForbiddenError(CANNOT_EDIT_SELF);
  const updated = await ctx.db.transaction(async (tx) => {
    const [current] = await lockActiveMembers(tx, companyId, [userId]);
    if (!current) throw new NotFoundError(USER_NOT_FOUND);
    const plan = planRoleChange(userId, current, input);
    if (!plan.ok) throw fieldError(plan.field, plan.message);
    if (plan.managerToCheck !== null) await assertActiveManager(tx, companyId, plan.managerToCheck);
    if (plan.leavesManagerRole && (await countActiveReports(tx, companyId, userId)) > 0) throw fieldError('role', MANAGER_HAS_TEAM_ROLE);

    await updateUserRow(tx, companyId, userId, {
      fullName: input.full_name,
      role: plan.role,
      code: plan.code,
      managerId: plan.managerId,
      designation: input.designation,
      mobileNumber: input.mobile_number,
    });
    if (plan.managerId !== null) await upsertTeamMember(tx, { companyId, userId, managerId: plan.managerId });
    else await deleteTeamMember(tx, companyId, userId);
    // A feed made under the old role (a manager's team approvals) ends; they may make a new one.
    if (isDemotion(current.role, plan.role)) await deleteFeed(tx, companyId, userId);
    return (await findUser(tx, companyId, userId))!;
  });
  // A new role takes effect on the user's next request, whichever instance answers it.
  await settleChanges(ctx.db);
  return updated;
}

/** What deleting this user would touch: their open subtasks, and the team they manage (none unless a manager). */
export async function openWorkOfUser(ctx: ServiceContext, userId: number): Promise<UserOpenWork> {
  const { companyId } = ctx.user;
  const user = await findActiveMember(ctx.db, companyId, userId);
  if (!user) throw new NotFoundError(USER_NOT_FOUND);
  const [openSubtasks, awaitingApproval, teamMembers] = await Promise.all([
    countWorkOf(ctx.db, companyId, userId, 'ongoing'),
    countWorkOf(ctx.db, companyId, userId, 'pending_approval'),
    user.role === 'manager' ? countActiveReports(ctx.db, companyId, userId) : 0,
  ]);
  return { open_subtasks: openSubtasks, awaiting_approval: awaitingApproval, team_members: teamMembers };
}

/**
 * Soft delete: the user leaves every list and their sessions end; rows that name them keep doing
 * so. Their open work (subtasks ongoing, in projects not completed) goes to `reassign_to` in the
 * same transaction; with open work and nobody named, nothing changes (409 saying how much). Work
 * they sent for approval stays theirs: whoever took it over would be credited when it is approved.
 */
export async function deleteUser(ctx: ServiceContext, userId: number, query: DeleteUserQuery = {}): Promise<void> {
  const { companyId } = ctx.user;
  if (userId === ctx.user.id) throw new ForbiddenError(CANNOT_DELETE_SELF);
  await ctx.db.transaction(async (tx) => {
    const reassignTo = query.reassign_to;
    const locked = await lockActiveMembers(tx, companyId, reassignTo === undefined ? [userId] : [userId, reassignTo]);
    const current = locked.find((row) => row.id === userId);
    if (!current) throw new NotFoundError(USER_NOT_FOUND);
    if (current.role === 'manager' && (await countActiveReports(tx, companyId, userId)) > 0) throw new ValidationError(MANAGER_HAS_TEAM_DELETE);
    // Whoever accepts an invitation joins its manager's team: one naming a deleted manager could never be accepted.
    if (current.role === 'manager' && (await countPendingInvitationsTo(tx, companyId, userId)) > 0) throw new ValidationError(MANAGER_HAS_INVITATIONS_DELETE);
    if (reassignTo === undefined) {
      const open = await countWorkOf(tx, companyId, userId, 'ongoing');
      if (open > 0) throw new ConflictError(openWorkConflict(open));
    } else {
      const heir = locked.find((row) => row.id === reassignTo);
      if (reassignTo === userId || !heir || heir.role === 'admin') throw fieldError('reassign_to', REASSIGN_INVALID);
      const moved = await reassignOpenWork(tx, companyId, { id: userId, email: current.email }, { id: heir.id, email: heir.email }, ctx.user.id);
      if (moved.length > 0) await events.emit(tx, 'subtasks.assigned', { actor: { id: ctx.user.id, companyId, email: ctx.user.email }, subtaskIds: moved });
    }
    await softDeleteUser(tx, companyId, userId);
    await revokeUserRefreshTokens(tx, userId);
  });
  await settleChanges(ctx.db);
}

/**
 * An admin sets another user's password: every login of theirs ends now (the identity trigger of
 * migration 0007 tells each instance's cache), so does their calendar feed (its secret URL is a
 * credential too), and they must choose their own at next sign-in.
 */
/** Guard: the user the path names is an active member of the company (404 otherwise), asked before a change's body is read. */
export const userFound = foundInCompany(findActiveMember, USER_NOT_FOUND);

/**
 * Guard of a deletion: the heir `reassign_to` names is of the company, else 404 before the deletion
 * is asked, as a list's filter naming another company's user (decision record 120). Someone of the
 * company who may not take the work (the user themselves, an admin, someone who has left) is the
 * service's field error; a value that names nothing is left to validation.
 */
export const heirFound: Guard = async (request) => {
  const heir = deleteUserQuery.shape.reassign_to.safeParse((request.query as Record<string, unknown> | undefined)?.reassign_to);
  if (heir.success && heir.data !== undefined && !(await userExists(request.ctx.db, request.user.companyId, heir.data))) throw new NotFoundError(USER_NOT_FOUND);
};

/**
 * Guard: the user the path names is not the caller (an admin changes their own account on their
 * profile, and is never deleted by themselves), asked before a change's body or query is read.
 */
const someoneElse =
  (refusal: string): Guard =>
  async (request) => {
    const parsed = idParams.safeParse(request.params);
    if (parsed.success && parsed.data.id === request.user.id) throw new ForbiddenError(refusal);
  };
export const notOneself = { edit: someoneElse(CANNOT_EDIT_SELF), delete: someoneElse(CANNOT_DELETE_SELF) };

export async function setUserPassword(ctx: ServiceContext, userId: number, password: string): Promise<void> {
  const { companyId } = ctx.user;
  if (userId === ctx.user.id) throw new ForbiddenError(CANNOT_EDIT_SELF);
  if (!(await findActiveMember(ctx.db, companyId, userId))) throw new NotFoundError(USER_NOT_FOUND);
  const passwordHash = await hashPassword(password);
  await ctx.db.transaction(async (tx) => {
    if (!(await replacePassword(tx, companyId, userId, { passwordHash, mustChange: true }))) throw new NotFoundError(USER_NOT_FOUND);
  });
  await settleChanges(ctx.db);
}

/**
 * Locks the manager for the rest of the transaction, so they cannot be demoted or deleted
 * between this check and the commit. Another company's id, or none, is a 404, as in a path.
 */
export async function assertActiveManager(tx: DbOrTx, companyId: number, managerId: number): Promise<void> {
  const [manager] = await lockActiveMembers(tx, companyId, [managerId]);
  if (manager?.role === 'manager') return;
  if (await namesAStranger(tx, companyId, [managerId])) throw new NotFoundError(USER_NOT_FOUND);
  throw fieldError('manager_id', MANAGER_INVALID);
}

function throwIfAny(errors: FieldErrors): void {
  const messages = Object.values(errors).flat();
  if (messages.length > 0) throw new ValidationError(messages.join(' '), errors);
}
