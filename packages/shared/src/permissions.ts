import type { DailyLogStatus } from './daily-logs';
import type { ProjectStatus } from './projects';
import type { Role } from './roles';
import type { Priority, Subtask, SubtaskStatus } from './tasks';
import { SUBTASK_CHANGE_ASIDES } from './subtask-values';

/**
 * Role × action: the one table both the server's role guards and the web's menus read.
 * Row-level rules (which project, whose subtask) are the functions below, used by both sides.
 */
export const PERMISSIONS = {
  'users:manage': ['admin'],
  'team-members:read': ['admin', 'manager'],
  'team-members:manage': ['admin'],
  'team-members:workload': ['manager'],
  'company:manage': ['admin'],
  'projects:manage': ['admin'],
  'reports:appraisal': ['admin'],
  'reports:team': ['admin', 'manager'],
  'major-tasks:create': ['manager'],
  // Which major tasks: the project's manager's and the creator's (canManageMajorTask); an admin's, as they run every project.
  'major-tasks:manage': ['admin', 'manager'],
  'subtasks:create': ['manager', 'team_member'],
  'calendar:team-approvals': ['manager'],
  // Which logs: their own project's for a manager (keepsDailyLog); an admin's, as they run every project.
  'daily-logs:keep': ['admin', 'manager'],
  // Which logs: the projects they have work in (decideContribution), and those they keep.
  'daily-logs:contribute': ['admin', 'manager', 'team_member'],
  'daily-logs:missing': ['admin'],
  'dashboard:admin': ['admin'],
  // Which drawings: their own project's for a manager (decideSheetKeeping); an admin's, as they run every project.
  'sheets:keep': ['admin', 'manager'],
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

export const COMPLETED_PROJECT_READ_ONLY = 'Tasks cannot be created or changed in a completed project.';
export const NOT_YOUR_SUBTASK = 'You may only change subtasks assigned to you, or those of projects you manage or that you assigned.';
export const ASSIGNEE_MAY_ONLY_SUBMIT = 'You can only send your own ongoing task for approval.';
export const ONLY_ONGOING_CAN_BE_SUBMITTED = 'Only an ongoing task can be sent for approval.';
export const NOT_YOUR_MAJOR_TASK = "Only the project's manager or the manager who created this major task can change or delete it.";
export const NEW_SUBTASK_STARTS_ONGOING = "A new subtask starts as ongoing; only the project's manager can create it in another status.";
export const APPROVED_WORK_KEEPS_ASSIGNEE = 'This subtask is approved: it stays with the person who did it. Set it back to ongoing first to give it to someone else.';
export const PENDING_WORK_KEEPS_ASSIGNEE = 'This subtask waits for approval of its assignee\'s work. Approve or decline it first; once declined it can go to someone else.';
export const PAST_DUE_DATE_NEEDS_PROJECT_MANAGER = "Only the project's manager can create a subtask that is already overdue: choose today or a later date.";

/** Who is acting. */
export interface Actor {
  id: number;
  role: Role;
}

/** What the subtask rules need to know about a subtask and the project above it. */
export interface SubtaskParties {
  status: SubtaskStatus;
  assignedToId: number | null;
  assignedById: number | null;
  projectManagerId: number | null;
  projectStatus: ProjectStatus;
}

/** The parties of a subtask as the API answers it. */
export function subtaskParties(subtask: Pick<Subtask, 'status' | 'assigned_to_id' | 'assigned_by' | 'major_task'>): SubtaskParties {
  return {
    status: subtask.status,
    assignedToId: subtask.assigned_to_id,
    assignedById: subtask.assigned_by?.id ?? null,
    projectManagerId: subtask.major_task.project.manager_id,
    projectStatus: subtask.major_task.project.status,
  };
}

export interface SubtaskEdit {
  status?: SubtaskStatus;
  name?: string;
  description?: string;
  priority?: Priority;
  due_date?: string;
  assigned_to_id?: number;
  /** Where the subtask is on a drawing (null: nowhere): an edit like the others. */
  pin?: { sheet_id: number; x: number; y: number } | null;
  /** Said with the change; allowed to whoever may make the change. */
  comment?: string;
}

export interface StatusChange {
  from: SubtaskStatus;
  to: SubtaskStatus;
}

export type SubtaskDecision = { ok: true; statusChange?: StatusChange } | { ok: false; error: 'forbidden' | 'invalid' | 'conflict'; message: string };

/** The one status whose work may change hands (assigneeChangeRefusal). */
export const REASSIGNABLE_STATUS = 'ongoing' satisfies SubtaskStatus;

/**
 * Work changes hands only while it is ongoing (decision record 113). Approved work counts in its
 * assignee's appraisal and stays theirs; work sent for approval is its assignee's to be judged, so
 * it is approved or declined (back to ongoing) before anyone else takes it over. Answers why not,
 * or undefined when the assignee may change. A deleted user's hand-over moves the same work.
 */
export function assigneeChangeRefusal(status: SubtaskStatus): string | undefined {
  if (status === REASSIGNABLE_STATUS) return undefined;
  return status === 'completed' ? APPROVED_WORK_KEEPS_ASSIGNEE : PENDING_WORK_KEEPS_ASSIGNEE;
}

/**
 * A manager who manages the subtask's project, or assigned the subtask to someone else: may set any
 * status and edit every field. A manager who gives themselves work in another manager's project
 * does it and sends it for approval like anyone: approving it is the project's manager's (else it
 * counted as approved work in their appraisal without anyone having looked at it).
 */
export function isSubtaskApprover(actor: Actor, parties: Pick<SubtaskParties, 'assignedToId' | 'assignedById' | 'projectManagerId'>): boolean {
  return actor.role === 'manager' && (parties.projectManagerId === actor.id || (parties.assignedById === actor.id && parties.assignedToId !== actor.id));
}

/**
 * Whether the actor may change anything of the subtask at all: its approver or its assignee. What
 * each may change depends on what they ask (decideSubtaskEdit); anyone else may change nothing,
 * whatever they ask, so this is asked before a change's body is read.
 */
export function isSubtaskParty(actor: Actor, parties: Pick<SubtaskParties, 'assignedToId' | 'assignedById' | 'projectManagerId'>): boolean {
  return isSubtaskApprover(actor, parties) || parties.assignedToId === actor.id;
}

/**
 * The approval state machine (spec §4). The assignee, whatever their role, may only send an
 * ongoing subtask for approval; an approver may set any status (approve = completed, decline =
 * ongoing) and edit the subtask, its assignee only while it is ongoing (a 409 otherwise); nobody
 * changes anything under a completed project; anyone else is refused.
 */
export function decideSubtaskEdit(actor: Actor, parties: SubtaskParties, edit: SubtaskEdit): SubtaskDecision {
  const approver = isSubtaskApprover(actor, parties);
  if (!isSubtaskParty(actor, parties)) return { ok: false, error: 'forbidden', message: NOT_YOUR_SUBTASK };
  if (parties.projectStatus === 'completed') return { ok: false, error: 'invalid', message: COMPLETED_PROJECT_READ_ONLY };

  if (!approver) {
    const onlySubmits = edit.status === 'pending_approval' && Object.entries(edit).every(([key, value]) => key === 'status' || SUBTASK_CHANGE_ASIDES.has(key) || value === undefined);
    if (!onlySubmits) return { ok: false, error: 'forbidden', message: ASSIGNEE_MAY_ONLY_SUBMIT };
    if (parties.status !== 'ongoing') return { ok: false, error: 'invalid', message: ONLY_ONGOING_CAN_BE_SUBMITTED };
  }

  const reassignRefusal = edit.assigned_to_id !== undefined && edit.assigned_to_id !== parties.assignedToId ? assigneeChangeRefusal(parties.status) : undefined;
  if (reassignRefusal) return { ok: false, error: 'conflict', message: reassignRefusal };

  if (edit.status === undefined || edit.status === parties.status) return { ok: true };
  return { ok: true, statusChange: { from: parties.status, to: edit.status } };
}

/**
 * Whether the actor may pin the subtask on a sheet, move its pin or unpin it: a pin is an edit of
 * the subtask like its name, so whoever may edit the subtask (decideSubtaskEdit). The server decides
 * the PATCH with that rule and answers this with each pin; the viewer lets a pin be dragged by it.
 */
export function canMoveSubtaskPin(actor: Actor, parties: SubtaskParties): boolean {
  return decideSubtaskEdit(actor, parties, { pin: null }).ok;
}

/** Whether the actor is the assignee and may send the subtask for approval now: what shows the "Send for Approval" button. */
export function canSubmitSubtask(actor: Actor, parties: SubtaskParties): boolean {
  return parties.assignedToId === actor.id && parties.status === 'ongoing' && decideSubtaskEdit(actor, parties, { status: 'pending_approval' }).ok;
}

export const NOT_A_SUBTASK_PARTY = "Only the subtask's assignee, its assigner, the project's manager and admins may comment on it or add photos.";

/**
 * Who may comment on a subtask and add photos to it: its assignee, its assigner, the project's
 * manager, and admins — never under a completed project.
 */
export function decideRecordAddition(actor: Actor, parties: SubtaskParties): SubtaskDecision {
  const party = actor.role === 'admin' || [parties.assignedToId, parties.assignedById, parties.projectManagerId].includes(actor.id);
  if (!party) return { ok: false, error: 'forbidden', message: NOT_A_SUBTASK_PARTY };
  if (parties.projectStatus === 'completed') return { ok: false, error: 'invalid', message: COMPLETED_PROJECT_READ_ONLY };
  return { ok: true };
}

export const canAddToSubtaskRecord = (actor: Actor, parties: SubtaskParties) => decideRecordAddition(actor, parties).ok;

/** Whether the actor may set the subtask's status and edit its fields: what shows the status dropdown and edit controls. */
export function canDecideSubtask(actor: Actor, parties: SubtaskParties): boolean {
  return isSubtaskApprover(actor, parties) && parties.projectStatus !== 'completed';
}

/** What the major task rules need to know about a major task and the project above it. */
export interface MajorTaskParties {
  createdById: number | null;
  projectManagerId: number | null;
}

/** Renaming or deleting a major task (and with it its subtasks): the project's manager, the manager who created it, or an admin. */
export function canManageMajorTask(actor: Actor, parties: MajorTaskParties): boolean {
  if (actor.role === 'admin') return true;
  return actor.role === 'manager' && (parties.projectManagerId === actor.id || parties.createdById === actor.id);
}

export interface NewSubtask {
  status: SubtaskStatus;
  dueDate: string;
}

export type NewSubtaskDecision = { ok: true } | { ok: false; error: 'forbidden' | 'invalid'; field: 'status' | 'due_date'; message: string };

/** Who may create a subtask of this project in any status and with any due date: its manager only. */
export function isProjectManager(actor: Actor, projectManagerId: number | null): boolean {
  return actor.role === 'manager' && projectManagerId === actor.id;
}

/**
 * Creating a subtask must not skip the approval loop: it starts ongoing, and not yet overdue,
 * unless the project's manager creates it. `today` is the calendar date in the company's time
 * zone (`YYYY-MM-DD`, so it compares as text).
 */
export function decideNewSubtask(actor: Actor, projectManagerId: number | null, subtask: NewSubtask, today: string): NewSubtaskDecision {
  if (isProjectManager(actor, projectManagerId)) return { ok: true };
  if (subtask.status !== 'ongoing') return { ok: false, error: 'forbidden', field: 'status', message: NEW_SUBTASK_STARTS_ONGOING };
  if (subtask.dueDate < today) return { ok: false, error: 'invalid', field: 'due_date', message: PAST_DUE_DATE_NEEDS_PROJECT_MANAGER };
  return { ok: true };
}

export const DAILY_LOG_SIGNED = 'This daily log is signed: correct it with an amendment.';
/**
 * A signed log refuses the crew's own hours, notes and photos with what they can do: only the
 * keepers amend (keepsDailyLog), so the crew is not told to.
 */
export const DAILY_LOG_SIGNED_BEFORE_ENTRY = "The manager signed this day's log before your entry arrived. Add it to today's log or tell your manager.";
export const DAILY_LOG_SIGNED_BEFORE_CHANGE = "The manager signed this day's log before your change arrived. Tell your manager, who can correct it with an amendment.";
/** The same when the company's admin signed: the crew is told who did, not assumed to be the manager. */
export const DAILY_LOG_ADMIN_SIGNED_BEFORE_ENTRY = "The admin signed this day's log before your entry arrived. Add it to today's log or tell your manager.";
export const DAILY_LOG_ADMIN_SIGNED_BEFORE_CHANGE = "The admin signed this day's log before your change arrived. Tell your manager, who can correct it with an amendment.";
export const DAILY_LOG_NOT_SIGNED = 'Only a signed daily log takes amendments: change the draft itself.';
export const COMPLETED_PROJECT_LOGS_READ_ONLY = "A completed project's daily logs are read-only.";
export const NOT_LOG_KEEPER = "Only the project's manager and admins can write, sign and amend its daily log.";
export const NO_WORK_IN_PROJECT = 'Only people with work in this project can add to its daily log.';
export const NOT_YOUR_LOG_ENTRY = 'You can only change or remove your own entries and photos.';

/** What the rules need to know about a day's log and its project. */
export interface DailyLogParties {
  projectManagerId: number | null;
  projectStatus: ProjectStatus;
  /** The actor has a subtask assigned in the project. */
  hasWork: boolean;
  /** null: nobody has opened the day's log yet. */
  logStatus: DailyLogStatus | null;
  /**
   * The role of whoever signed the log (null while nobody has), for the refusal's text: a caller
   * that asks only whether it may (the web's buttons) need not know it.
   */
  signerRole?: Role | null;
}

export type DailyLogDecision = { ok: true } | { ok: false; error: 'forbidden' | 'invalid' | 'conflict'; message: string };

/** The project's manager and admins keep its logs: write, sign, amend. */
export const keepsDailyLog = (actor: Actor, parties: Pick<DailyLogParties, 'projectManagerId'>) =>
  actor.role === 'admin' || (actor.role === 'manager' && parties.projectManagerId === actor.id);

/** `signed`: the refusal's text on a signed log (the keepers' unless said). */
function whileOpen(parties: DailyLogParties, signed = DAILY_LOG_SIGNED): DailyLogDecision {
  if (parties.projectStatus === 'completed') return { ok: false, error: 'invalid', message: COMPLETED_PROJECT_LOGS_READ_ONLY };
  if (parties.logStatus === 'signed') return { ok: false, error: 'conflict', message: signed };
  return { ok: true };
}

/**
 * A signed log's refusal of a contribution: the keepers are told to amend, the others who signed
 * (a keeper: the project's manager or the admin) and what they can do instead.
 */
function signedFor(actor: Actor, parties: DailyLogParties, texts: { manager: string; admin: string }): string {
  if (keepsDailyLog(actor, parties)) return DAILY_LOG_SIGNED;
  return parties.signerRole === 'admin' ? texts.admin : texts.manager;
}

/** Writing the sections and signing: the keepers, while the project is open and the log unsigned. */
export function decideLogKeeping(actor: Actor, parties: DailyLogParties): DailyLogDecision {
  if (!keepsDailyLog(actor, parties)) return { ok: false, error: 'forbidden', message: NOT_LOG_KEEPER };
  return whileOpen(parties);
}

/** An amendment: the keepers, on a signed log of an open project. */
export function decideAmendment(actor: Actor, parties: DailyLogParties): DailyLogDecision {
  if (!keepsDailyLog(actor, parties)) return { ok: false, error: 'forbidden', message: NOT_LOG_KEEPER };
  if (parties.projectStatus === 'completed') return { ok: false, error: 'invalid', message: COMPLETED_PROJECT_LOGS_READ_ONLY };
  if (parties.logStatus !== 'signed') return { ok: false, error: 'conflict', message: DAILY_LOG_NOT_SIGNED };
  return { ok: true };
}

/** One's own hours, notes and photos: whoever has work in the project (and the keepers), until the log is signed. */
export function decideContribution(actor: Actor, parties: DailyLogParties): DailyLogDecision {
  if (!parties.hasWork && !keepsDailyLog(actor, parties)) return { ok: false, error: 'forbidden', message: NO_WORK_IN_PROJECT };
  return whileOpen(parties, signedFor(actor, parties, { manager: DAILY_LOG_SIGNED_BEFORE_ENTRY, admin: DAILY_LOG_ADMIN_SIGNED_BEFORE_ENTRY }));
}

/** Changing or removing a contribution: its author only, on the same terms as adding it. */
export function decideOwnContributionChange(actor: Actor, authorId: number | null, parties: DailyLogParties): DailyLogDecision {
  if (authorId !== actor.id) return { ok: false, error: 'forbidden', message: NOT_YOUR_LOG_ENTRY };
  if (!parties.hasWork && !keepsDailyLog(actor, parties)) return { ok: false, error: 'forbidden', message: NO_WORK_IN_PROJECT };
  return whileOpen(parties, signedFor(actor, parties, { manager: DAILY_LOG_SIGNED_BEFORE_CHANGE, admin: DAILY_LOG_ADMIN_SIGNED_BEFORE_CHANGE }));
}
