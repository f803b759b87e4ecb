import type { Role } from './roles';

/**
 * Role × action: the one table both the server's role guards and the web's menus read.
 * Row-level rules (which project, whose subtask) live in the server's services.
 */
export const PERMISSIONS = {
  'users:manage': ['admin'],
  'team-members:read': ['admin', 'manager'],
  'team-members:manage': ['admin'],
  'team-members:workload': ['manager'],
  'company:manage': ['admin'],
  'projects:manage': ['admin'],
  'projects:read': ['admin', 'manager', 'team_member'],
  'reports:appraisal': ['admin'],
  'reports:team': ['admin', 'manager'],
  'major-tasks:create': ['manager'],
  'major-tasks:manage': ['manager'],
  'subtasks:create': ['manager', 'team_member'],
  'subtasks:approve': ['manager'],
  'subtasks:submit': ['team_member', 'manager'],
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof PERMISSIONS;

export function can(role: Role, action: Action): boolean {
  return (PERMISSIONS[action] as readonly Role[]).includes(role);
}

/** The area a role lands in after login. */
export const HOME_PATH: Record<Role, string> = {
  admin: '/admin',
  manager: '/manager',
  team_member: '/team-member',
};
