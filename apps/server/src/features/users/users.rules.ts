import { MANAGER_REQUIRED, type Role } from '@siteboard/shared';

export const CODE_PREFIX: Record<Role, string> = { admin: 'ADM', manager: 'MGR', team_member: 'TM' };

export const USER_NOT_FOUND = 'User not found.';
export const COMPANY_NOT_FOUND = 'Company not found.';
export const CANNOT_EDIT_SELF = 'You cannot edit your own account.';
export const CANNOT_DELETE_SELF = 'You cannot delete your own account.';
export const MANAGER_INVALID = 'Select an active manager of your company.';
export const MANAGER_HAS_TEAM_ROLE = "Reassign this manager's team members before changing their role.";
export const MANAGER_HAS_TEAM_DELETE = "Reassign this manager's team members before deleting them.";
export const MANAGER_HAS_INVITATIONS_DELETE = "Invitations to this manager's team are still open: revoke them (and invite those people to another manager) before deleting them.";
export const REASSIGN_INVALID = 'Choose another active manager or team member of your company to take over the work.';

/** The refusal of a deletion that would orphan work: how much, and what to do. */
export function openWorkConflict(openSubtasks: number): string {
  const work = openSubtasks === 1 ? '1 open subtask' : `${openSubtasks} open subtasks`;
  return `This user has ${work}. Choose who takes over their work (reassign_to) to delete them.`;
}

/** The short per-company code shown in greetings: "TM-0007". */
export function userCode(role: Role, companyUserNumber: number): string {
  return `${CODE_PREFIX[role]}-${String(companyUserNumber).padStart(4, '0')}`;
}

/** A new role keeps the user's number and takes the role's prefix (TM-0007 → MGR-0007), so greetings never show a stale role. */
export function recodeForRole(code: string, role: Role): string {
  const number = /-(\d+)$/.exec(code)?.[1];
  return number === undefined ? code : userCode(role, Number(number));
}

/** Only team members report to a manager; for every other role the link is dropped. */
export function managerLinkFor(role: Role, managerId: number | null | undefined): number | null {
  return role === 'team_member' ? (managerId ?? null) : null;
}

export interface RoleState {
  role: Role;
  managerId: number | null;
  code: string;
}

export type RoleChangePlan =
  | { ok: false; field: 'manager_id'; message: string }
  | {
      ok: true;
      role: Role;
      managerId: number | null;
      code: string;
      /** A manager id that must belong to an active manager of the company before the change is made. */
      managerToCheck: number | null;
      /** The user stops being a manager: allowed only when nobody reports to them any more. */
      leavesManagerRole: boolean;
    };

/**
 * What an admin's edit does to a user's role and manager. A team member needs a manager (the
 * one in the body, else the one they have) and cannot manage themselves; any manager id sent is
 * checked even when the new role drops it, so a foreign id never passes silently.
 */
export function planRoleChange(userId: number, current: RoleState, input: { role?: Role; manager_id?: number | null }): RoleChangePlan {
  const role = input.role ?? current.role;
  const code = role === current.role ? current.code : recodeForRole(current.code, role);
  const leavesManagerRole = current.role === 'manager' && role !== 'manager';
  const sentManager = input.manager_id ?? null;
  if (role !== 'team_member') return { ok: true, role, managerId: null, code, managerToCheck: sentManager, leavesManagerRole };

  const managerId = input.manager_id === undefined ? current.managerId : input.manager_id;
  if (!managerId) return { ok: false, field: 'manager_id', message: MANAGER_REQUIRED };
  if (managerId === userId) return { ok: false, field: 'manager_id', message: MANAGER_INVALID };
  const becomesTeamMember = current.role !== 'team_member';
  return { ok: true, role, managerId, code, managerToCheck: sentManager ?? (becomesTeamMember ? managerId : null), leavesManagerRole };
}

/** How much a role may see and decide: a change down this order is a demotion. */
const ROLE_RANK: Record<Role, number> = { team_member: 0, manager: 1, admin: 2 };

/** Whether a role change takes something away (it then ends what was granted under the old role, e.g. the calendar feed). */
export const isDemotion = (from: Role, to: Role): boolean => ROLE_RANK[to] < ROLE_RANK[from];
