import type { Role } from '@siteboard/shared';

const CODE_PREFIX: Record<Role, string> = { admin: 'ADM', manager: 'MGR', team_member: 'TM' };

/** The short per-company code shown in greetings: "TM-0007". */
export function userCode(role: Role, companyUserNumber: number): string {
  return `${CODE_PREFIX[role]}-${String(companyUserNumber).padStart(4, '0')}`;
}
