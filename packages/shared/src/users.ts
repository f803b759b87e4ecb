import { z } from 'zod';
import { commaList, pageParams, positiveId, searchParam, text, wholeNumber } from './common';
import { USERS_MAX_LIMIT } from './list-sizes';
import { ASSIGNABLE_ROLES, ROLES, type Role } from './roles';

export const roleSchema = z.enum(ROLES, { error: 'Select a role.' });

export const companyRef = z.object({ id: z.number(), name: z.string() });

export const userSchema = z.object({
  id: z.number(),
  email: z.string(),
  /** Optional; screens show it with the e-mail as secondary text, the e-mail alone without it. */
  full_name: z.string().nullable(),
  role: roleSchema,
  code: z.string(),
  designation: z.string().nullable(),
  mobile_number: z.string().nullable().meta({ description: "Null to a team member for anyone but themselves and their own manager (userAsSeenBy)" }),
  company: companyRef,
  company_id: z.number(),
  manager_id: z.number().nullable().meta({ description: 'Null to a team member for anyone but themselves (userAsSeenBy)' }),
  manager_data: z.object({ email: z.string() }).nullable().meta({ description: 'Null to a team member for anyone but themselves (userAsSeenBy)' }),
  /**
   * An admin set this user's password: they must choose their own (POST /api/profile/password/)
   * before anything else. Told to admins only: to anyone else it would say whose account holds a
   * password someone else knows.
   */
  must_change_password: z.boolean().optional(),
});
export type User = z.infer<typeof userSchema>;

/** Who is looking at a user record, as the rule below needs them: their own manager only for a team member. */
export interface UserViewer {
  id: number;
  role: Role;
  /** The manager a team member reports to (null for everyone else). */
  managerId: number | null;
}

/**
 * What a user record shows to whom (decision record 118). Admins and managers see everything of
 * their company's people, and a team member everything of themselves; a team member sees of a
 * colleague who they are (name, e-mail, code, role, designation) but not their mobile number, which
 * only their own manager's record carries for them, nor who manages them. Whether an admin set the
 * password is the admins' to know. The fields stay, as null, so the answer keeps the user shape.
 */
export function userAsSeenBy(viewer: UserViewer, user: User): User {
  const { must_change_password: _, ...rest } = user;
  const seen: User = viewer.role === 'admin' ? user : rest;
  if (viewer.role !== 'team_member' || user.id === viewer.id) return seen;
  return { ...seen, mobile_number: user.id === viewer.managerId ? user.mobile_number : null, manager_id: null, manager_data: null };
}


/** All optional: without any the answer is the first page of the company's active users, as an array like the spec's call expects. */
export const userListQuery = z.object({
  role: commaList('role', ROLES)
    .optional()
    .meta({ description: 'Only users with one of these roles: the assignee list asks for manager,team_member' }),
  search: searchParam('name or e-mail'),
  team_first: z
    .enum(['true', 'false'], { error: 'team_first must be true or false.' })
    .optional()
    .transform((value) => value === 'true')
    .meta({ description: "true: the caller's own team members come first (assignee pickers), then everyone else by e-mail" }),
  ...pageParams(USERS_MAX_LIMIT),
});

const mobileNumber = text()
  .trim()
  .max(32, 'Mobile number must be at most 32 characters.')
  .regex(/^$|^\+?[0-9 ()-]{5,}$/, 'Enter a valid mobile number.')
  .nullish()
  .transform((value) => (value ? value : null));
const designation = text()
  .trim()
  .max(100, 'Designation must be at most 100 characters.')
  .nullish()
  .transform((value) => (value ? value : null));
export const FULL_NAME_MAX = 120;
/** Trimmed; empty means no name (null). */
export const fullName = text()
  .trim()
  .max(FULL_NAME_MAX, `Full name must be at most ${FULL_NAME_MAX} characters.`)
  .nullish()
  .transform((value) => (value ? value : null));
const managerId = positiveId('Select a manager.').nullish();

export const MANAGER_REQUIRED = 'A manager must be assigned to a team member.';
export const EMAIL_TAKEN = 'A user with this email already exists. Please use a different email.';

export const createUserInput = z
  .object({
    email: text({ error: 'Email and password are required.' }).trim().min(1, 'Email and password are required.').max(254).pipe(z.email('Enter a valid email address.')).meta({ format: 'email' }),
    password: text({ error: 'Email and password are required.' })
      .min(1, 'Email and password are required.')
      .min(8, 'Password must be at least 8 characters.')
      .max(200, 'Password must be at most 200 characters.'),
    full_name: fullName,
    role: z.enum(ASSIGNABLE_ROLES, { error: 'Role must be manager or team_member.' }),
    designation,
    mobile_number: mobileNumber,
    /** Sent by the spec's client; it must be the caller's own company. */
    company_id: positiveId('Company not found.').nullish(),
    manager_id: managerId,
    /** Beside the spec's fields: the person chooses their own password at their first sign-in (the web's form asks it by default). */
    must_change_password: z.boolean().optional().meta({ description: 'The person must choose a new password at their first sign-in (default false)' }),
  })
  .superRefine((input, ctx) => {
    if (input.role === 'team_member' && !input.manager_id) ctx.addIssue({ code: 'custom', path: ['manager_id'], message: MANAGER_REQUIRED });
  });
export type CreateUserInput = z.input<typeof createUserInput>;

export const updateUserInput = z
  .object({ full_name: fullName.optional(), role: roleSchema.optional(), designation: designation.optional(), mobile_number: mobileNumber.optional(), manager_id: managerId })
  .refine((input) => Object.values(input).some((value) => value !== undefined), 'Nothing to update.');
export type UpdateUserInput = z.input<typeof updateUserInput>;

/** What deleting a user would touch: asked before the admin confirms (GET /api/users/{id}/open-work/). */
export const userOpenWorkSchema = z.object({
  /** Their subtasks still to be done (ongoing), in projects not completed: they go to whoever the admin names. */
  open_subtasks: z.number().int(),
  /** Their subtasks sent for approval, in projects not completed: they stay theirs, for their manager to approve or decline. */
  awaiting_approval: z.number().int(),
  /** The team members they manage: a manager with a team cannot be deleted until the team is moved. */
  team_members: z.number().int(),
});
export type UserOpenWork = z.infer<typeof userOpenWorkSchema>;

/** `DELETE /api/users/{id}/`: who takes over the user's open subtasks; required when they have any. */
export const deleteUserQuery = z.object({
  reassign_to: positiveId('Choose who takes over the work.')
    .optional()
    .meta({ description: "The active manager or team member who takes over the deleted user's open subtasks (not completed, in projects not completed)" }),
});

export const teamMemberSchema = z.object({
  id: z.number(),
  user: z.object({ id: z.number(), email: z.string(), full_name: z.string().nullable(), company: companyRef }),
  manager: z.object({ id: z.number(), email: z.string(), full_name: z.string().nullable() }).nullable(),
  performance_score: z.number(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

/** A manager's team member with the names of their ongoing subtasks (in ongoing or planned projects), soonest due first. */
/** The most team-member records or workload items one page holds: more than any manager's team. */
export const TEAM_MAX_LIMIT = 200;
export const teamListQuery = z.object({ ...pageParams(TEAM_MAX_LIMIT) });

export const teamWorkloadItemSchema = z.object({
  user_id: z.number(),
  email: z.string(),
  full_name: z.string().nullable(),
  tasks: z.array(z.string()),
  task_count: z.number(),
});
export type TeamWorkloadItem = z.infer<typeof teamWorkloadItemSchema>;

export const upsertTeamMemberInput = z.object({
  user_id: positiveId('Select a user.'),
  manager_id: positiveId('Select a manager.'),
  /** 0 for a new record when left out; left out on an existing record, the score stays as it is. */
  performance_score: wholeNumber('Performance score must be between 0 and 100.', { min: 0, max: 100 }).optional(),
});
export type UpsertTeamMemberInput = z.input<typeof upsertTeamMemberInput>;
