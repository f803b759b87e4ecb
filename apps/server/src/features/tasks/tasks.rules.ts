import { COMPLETED_PROJECT_READ_ONLY, type Priority, type ProjectStatus, type Role, type SubtaskStatus } from '@siteboard/shared';

export const NOT_YOUR_SUBTASK = 'You may only change subtasks assigned to you, or those of projects you manage or that you assigned.';
export const ASSIGNEE_MAY_ONLY_SUBMIT = 'You can only send your own ongoing task for approval.';
export const ONLY_ONGOING_CAN_BE_SUBMITTED = 'Only an ongoing task can be sent for approval.';

export interface Actor {
  id: number;
  role: Role;
}

/** What the rules need to know about a subtask and the project above it. */
export interface SubtaskState {
  status: SubtaskStatus;
  assignedToId: number | null;
  assignedById: number | null;
  projectManagerId: number | null;
  projectStatus: ProjectStatus;
}

export interface SubtaskEdit {
  status?: SubtaskStatus;
  name?: string;
  description?: string;
  priority?: Priority;
  due_date?: string;
  assigned_to_id?: number;
}

export interface StatusChange {
  from: SubtaskStatus;
  to: SubtaskStatus;
}

/** The timestamp columns a status change sets; a key left out stays as it is. */
export interface StatusTimestamps {
  submittedAt?: Date;
  completedAt?: Date | null;
}

export type EditDecision =
  | { ok: true; statusChange?: StatusChange; timestamps: StatusTimestamps }
  | { ok: false; error: 'forbidden' | 'invalid'; message: string };

/** A manager who manages the subtask's project or assigned the subtask: may set any status and edit every field. */
export function isApprover(actor: Actor, state: Pick<SubtaskState, 'assignedById' | 'projectManagerId'>): boolean {
  return actor.role === 'manager' && (state.projectManagerId === actor.id || state.assignedById === actor.id);
}

/**
 * The approval state machine (spec §4). The assignee may only send an ongoing subtask for
 * approval; an approver may set any status (approve = completed, decline = ongoing) and edit the
 * subtask; nobody changes anything under a completed project; anyone else is refused.
 */
export function decideSubtaskEdit(actor: Actor, state: SubtaskState, edit: SubtaskEdit, now: Date): EditDecision {
  const approver = isApprover(actor, state);
  const assignee = state.assignedToId === actor.id;
  if (!approver && !assignee) return { ok: false, error: 'forbidden', message: NOT_YOUR_SUBTASK };
  if (state.projectStatus === 'completed') return { ok: false, error: 'invalid', message: COMPLETED_PROJECT_READ_ONLY };

  if (!approver) {
    const onlySubmits = edit.status === 'pending_approval' && Object.entries(edit).every(([key, value]) => key === 'status' || value === undefined);
    if (!onlySubmits) return { ok: false, error: 'forbidden', message: ASSIGNEE_MAY_ONLY_SUBMIT };
    if (state.status !== 'ongoing') return { ok: false, error: 'invalid', message: ONLY_ONGOING_CAN_BE_SUBMITTED };
  }

  if (edit.status === undefined || edit.status === state.status) return { ok: true, timestamps: {} };
  const statusChange = { from: state.status, to: edit.status };
  return { ok: true, statusChange, timestamps: statusTimestamps(statusChange, now) };
}

/** submitted_at records the latest submission; completed_at is set on completion and cleared when a task leaves completed. */
export function statusTimestamps(change: StatusChange, now: Date): StatusTimestamps {
  const timestamps: StatusTimestamps = {};
  if (change.to === 'pending_approval') timestamps.submittedAt = now;
  if (change.to === 'completed') timestamps.completedAt = now;
  if (change.from === 'completed') timestamps.completedAt = null;
  return timestamps;
}

/** A major task is due when its last subtask is (spec §3). `YYYY-MM-DD` strings sort as dates. */
export function latestDueDate(dueDates: readonly (string | null)[]): string | null {
  let latest: string | null = null;
  for (const date of dueDates) if (date !== null && (latest === null || date > latest)) latest = date;
  return latest;
}
