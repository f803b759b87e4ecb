import type { StatusChange } from '@siteboard/shared';
import type { AuthUser } from '../../platform';
import type { Involvement, SubtaskFilter } from './tasks.queries';

export const MAJOR_TASK_NOT_FOUND = 'Major task not found.';
export const SUBTASK_NOT_FOUND = 'Subtask not found.';

/** The timestamp columns a status change sets; a key left out stays as it is. */
export interface StatusTimestamps {
  submittedAt?: Date;
  completedAt?: Date | null;
}

/** submitted_at records the latest submission; completed_at is set on completion and cleared when a task leaves completed. */
export function statusTimestamps(change: StatusChange | undefined, now: Date): StatusTimestamps {
  const timestamps: StatusTimestamps = {};
  if (!change) return timestamps;
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

/** An edit's changed fields with their values before and after; an assignee as `{id, email}`. */
export type FieldChanges = Record<string, { from: unknown; to: unknown }>;

type Person = { id: number; email: string };

/**
 * What an edit changes, field by field, for the subtask's history: only the fields sent that
 * differ from what the subtask holds. `people` names the assignees involved.
 */
export function editedFields(
  current: { name: string; description: string; priority: string; dueDate: string | null; assignedToId: number | null },
  edit: { name?: string; description?: string; priority?: string; due_date?: string; assigned_to_id?: number },
  people: ReadonlyMap<number, Person>,
): FieldChanges {
  const changes: FieldChanges = {};
  const compare = (field: string, before: unknown, after: unknown) => {
    if (after !== undefined && after !== before) changes[field] = { from: before, to: after };
  };
  compare('name', current.name, edit.name);
  compare('description', current.description, edit.description);
  compare('priority', current.priority, edit.priority);
  compare('due_date', current.dueDate, edit.due_date);
  if (edit.assigned_to_id !== undefined && edit.assigned_to_id !== current.assignedToId) {
    const person = (id: number | null) => (id === null ? null : (people.get(id) ?? { id, email: '' }));
    changes.assigned_to = { from: person(current.assignedToId), to: person(edit.assigned_to_id) };
  }
  return changes;
}

/** Pending subtasks the caller decides on (isSubtaskApprover): a manager those of projects they manage or that they assigned to someone else; an admin all; a team member their own. */
export function pendingApprovalsFilter(user: AuthUser): SubtaskFilter {
  const parts: Record<AuthUser['role'], Involvement[] | undefined> = {
    admin: undefined,
    manager: ['project_manager', 'assigner_of_others'],
    team_member: ['assignee'],
  };
  const as = parts[user.role];
  return { status: 'pending_approval', involving: as && { userId: user.id, as } };
}

/** Subtasks not completed and due today, "today" being the viewer's date (their time zone, else the company's). */
export function tasksDueTodayFilter(user: AuthUser): SubtaskFilter {
  const parts: Record<AuthUser['role'], Involvement[] | undefined> = {
    admin: undefined,
    manager: ['project_manager', 'assigner', 'assignee'],
    team_member: ['assignee'],
  };
  const as = parts[user.role];
  return { dueTodayFor: user.id, notCompleted: true, involving: as && { userId: user.id, as } };
}
