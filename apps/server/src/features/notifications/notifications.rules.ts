import type { NotificationType } from '@siteboard/shared';

/** The subtask a notification is about, named the way people know it. */
export interface TaskRef {
  name: string;
  projectName: string;
}

/** The text of each notification. Task names are quoted, the project follows in brackets. */
export const messages = {
  taskAssignment: (actorEmail: string, task: TaskRef, dueDate: string | null) =>
    `${actorEmail} assigned you ${named(task)}${dueDate ? `, due ${dueDate}` : ''}`,
  taskSubmission: (actorEmail: string, task: TaskRef) => `${actorEmail} sent ${named(task)} for approval`,
  taskApproved: (actorEmail: string, task: TaskRef) => `${actorEmail} approved ${named(task)}`,
  taskDeclined: (actorEmail: string, task: TaskRef) => `${actorEmail} declined ${named(task)}; it is ongoing again`,
  deadlineReminder: (task: TaskRef, dueDate: string) => `${named(task)} is due tomorrow (${dueDate})`,
  approvalDelay: (task: TaskRef, submitterEmail: string | null, hours: number) =>
    `${named(task)}${submitterEmail ? ` from ${submitterEmail}` : ''} has been waiting for approval for more than ${formatHours(hours)}`,
} satisfies Record<string, (...args: never[]) => string>;

function named(task: TaskRef): string {
  return `'${task.name}' (${task.projectName})`;
}

function formatHours(hours: number): string {
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

/** The people a subtask event concerns, as far as the notification rules are concerned. */
export interface Parties {
  assigneeId: number | null;
  assignerId: number | null;
  projectManagerId: number | null;
}

/**
 * Who hears of what (DESIGN "Notifications the server creates"): the assignee of an assignment,
 * approval or decline; the approvers (project manager and assigner) of a submission or a delay.
 * Nobody is told of their own act, and each person once.
 */
export function recipientsOf(type: NotificationType, parties: Parties, actorId: number | null): number[] {
  const candidates =
    type === 'task_submission' || type === 'approval_delay' ? [parties.projectManagerId, parties.assignerId] : [parties.assigneeId];
  const excluded = type === 'approval_delay' ? parties.assigneeId : actorId;
  return [...new Set(candidates.filter((id): id is number => id !== null && id !== excluded))];
}
