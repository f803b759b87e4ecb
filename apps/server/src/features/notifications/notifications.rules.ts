import type { NotificationType } from '@siteboard/shared';

/** The subtask a notification is about, named the way people know it. */
export interface TaskRef {
  name: string;
  projectName: string;
}

/**
 * What a notification names, stored beside it so that each reader's text can be written from it:
 * the task, its project, who acted, a date, what was said, a duration.
 */
export type NotificationParams = Record<string, string | number | null>;

/** The longest a comment or reason is quoted in a notification; the whole text is on the subtask. */
const QUOTE_MAX = 200;
const quoted = (text: string) => (text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX - 1)}…` : text);

/** Each type's params from what the event knows. */
export const params = {
  taskAssignment: (actor: string, task: TaskRef, dueDate: string | null): NotificationParams => ({ actor, task: task.name, project: task.projectName, due: dueDate }),
  taskSubmission: (actor: string, task: TaskRef, note?: string): NotificationParams => ({ actor, task: task.name, project: task.projectName, note: note ? quoted(note) : null }),
  taskApproved: (actor: string, task: TaskRef): NotificationParams => ({ actor, task: task.name, project: task.projectName }),
  taskDeclined: (actor: string, task: TaskRef, reason?: string): NotificationParams => ({ actor, task: task.name, project: task.projectName, reason: reason ? quoted(reason) : null }),
  taskComment: (actor: string, task: TaskRef, text: string): NotificationParams => ({ actor, task: task.name, project: task.projectName, text: quoted(text) }),
  deadlineReminder: (task: TaskRef, dueDate: string): NotificationParams => ({ task: task.name, project: task.projectName, due: dueDate }),
  approvalDelay: (task: TaskRef, submitter: string | null, hours: number): NotificationParams => ({ task: task.name, project: task.projectName, submitter, hours }),
  taskOverdue: (task: TaskRef, assignee: string | null, dueDate: string): NotificationParams => ({ task: task.name, project: task.projectName, assignee, due: dueDate }),
};

const str = (value: string | number | null | undefined) => (value === null || value === undefined ? '' : String(value));

/** The English text of a notification from its type and params. Task names are quoted, the project follows in brackets. */
export function englishText(type: NotificationType, p: NotificationParams): string {
  const task = `'${str(p.task)}' (${str(p.project)})`;
  switch (type) {
    case 'task_assignment':
      return `${str(p.actor)} assigned you ${task}${p.due ? `, due ${str(p.due)}` : ''}`;
    case 'task_submission':
      return `${str(p.actor)} sent ${task} for approval${p.note ? `: ${str(p.note)}` : ''}`;
    case 'task_approved':
      return `${str(p.actor)} approved ${task}`;
    case 'task_declined':
      return p.reason ? `${str(p.actor)} declined ${task}: ${str(p.reason)}` : `${str(p.actor)} declined ${task}; it is ongoing again`;
    case 'task_comment':
      return `${str(p.actor)} commented on ${task}: ${str(p.text)}`;
    case 'deadline_reminder':
      return `${task} is due tomorrow (${str(p.due)})`;
    case 'approval_delay':
      return `${task}${p.submitter ? ` from ${str(p.submitter)}` : ''} has been waiting for approval for more than ${p.hours === 1 ? '1 hour' : `${str(p.hours)} hours`}`;
    case 'task_overdue':
      return `${task}${p.assignee ? `, assigned to ${str(p.assignee)},` : ''} is overdue: it was due ${str(p.due)}`;
  }
}

/** The people a subtask event concerns, as far as the notification rules are concerned. */
export interface Parties {
  assigneeId: number | null;
  assignerId: number | null;
  projectManagerId: number | null;
}

const WHO_HEARS: Record<NotificationType, (keyof Parties)[]> = {
  task_assignment: ['assigneeId'],
  task_approved: ['assigneeId'],
  task_declined: ['assigneeId'],
  deadline_reminder: ['assigneeId'],
  task_submission: ['projectManagerId', 'assignerId'],
  approval_delay: ['projectManagerId', 'assignerId'],
  task_comment: ['assigneeId', 'assignerId', 'projectManagerId'],
  task_overdue: ['projectManagerId'],
};

/**
 * Who hears of what (DESIGN "Notifications the server creates"): the assignee of an assignment,
 * approval, decline or reminder; the approvers (project manager and assigner) of a submission or
 * a delay; every other party of a comment; the project's manager of an overdue subtask.
 * Nobody is told of their own act, and each person once.
 */
export function recipientsOf(type: NotificationType, parties: Parties, actorId: number | null): number[] {
  const candidates = WHO_HEARS[type].map((part) => parties[part]);
  const excluded = type === 'approval_delay' ? parties.assigneeId : actorId;
  return [...new Set(candidates.filter((id): id is number => id !== null && id !== excluded))];
}
