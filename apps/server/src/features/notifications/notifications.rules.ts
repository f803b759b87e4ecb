import { formatDateOnly, formatNumber, t, type Language, type NotificationType } from '@siteboard/shared';

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

/** A person a notification names: their e-mail (the stored English text's, and the fallback) and their user id. */
export interface PersonRef {
  id: number;
  email: string;
}

/**
 * The params that name a person, each beside the one holding their user id: a text shows the
 * person's name as it is when the text is read (decision record 062), the e-mail when they gave
 * none or are gone. A notification names at most one person.
 */
export const PERSON_PARAMS = [
  ['actor', 'actor_id'],
  ['submitter', 'submitter_id'],
  ['assignee', 'assignee_id'],
] as const;

const person = (key: (typeof PERSON_PARAMS)[number][0], who: PersonRef | null): NotificationParams => ({ [key]: who?.email ?? null, [`${key}_id`]: who?.id ?? null });

/** Each type's params from what the event knows. */
export const params = {
  taskAssignment: (actor: PersonRef, task: TaskRef, dueDate: string | null): NotificationParams => ({ ...person('actor', actor), task: task.name, project: task.projectName, due: dueDate }),
  taskSubmission: (actor: PersonRef, task: TaskRef, note?: string): NotificationParams => ({ ...person('actor', actor), task: task.name, project: task.projectName, note: note ? quoted(note) : null }),
  taskApproved: (actor: PersonRef, task: TaskRef): NotificationParams => ({ ...person('actor', actor), task: task.name, project: task.projectName }),
  taskDeclined: (actor: PersonRef, task: TaskRef, reason?: string): NotificationParams => ({ ...person('actor', actor), task: task.name, project: task.projectName, reason: reason ? quoted(reason) : null }),
  taskComment: (actor: PersonRef, task: TaskRef, text: string): NotificationParams => ({ ...person('actor', actor), task: task.name, project: task.projectName, text: quoted(text) }),
  taskUnassigned: (actor: PersonRef, task: TaskRef): NotificationParams => ({ ...person('actor', actor), task: task.name, project: task.projectName }),
  deadlineReminder: (task: TaskRef, dueDate: string): NotificationParams => ({ task: task.name, project: task.projectName, due: dueDate }),
  approvalDelay: (task: TaskRef, submitter: PersonRef | null, hours: number): NotificationParams => ({ task: task.name, project: task.projectName, ...person('submitter', submitter), hours }),
  taskOverdue: (task: TaskRef, assignee: PersonRef | null, dueDate: string): NotificationParams => ({ task: task.name, project: task.projectName, ...person('assignee', assignee), due: dueDate }),
  dailyLogReminder: (projectName: string, date: string): NotificationParams => ({ project: projectName, date }),
};

const str = (value: string | number | null | undefined) => (value === null || value === undefined ? '' : String(value));

/**
 * A notification's text for a reader, from its type and params: task names quoted as the
 * language quotes, the project in brackets, dates and numbers as the reader writes them. In
 * English it is the text as it has always been written, byte for byte.
 */
export function notificationText(type: NotificationType, p: NotificationParams, language: Language): string {
  const task = t(language, "'{task}' ({project})", { task: str(p.task), project: str(p.project) });
  const due = formatDateOnly(str(p.due), language);
  const values = { actor: str(p.actor), task, due, note: str(p.note), reason: str(p.reason), text: str(p.text), submitter: str(p.submitter), assignee: str(p.assignee) };
  switch (type) {
    case 'task_assignment':
      return t(language, p.due ? '{actor} assigned you {task}, due {due}' : '{actor} assigned you {task}', values);
    case 'task_submission':
      return t(language, p.note ? '{actor} sent {task} for approval: {note}' : '{actor} sent {task} for approval', values);
    case 'task_approved':
      return t(language, '{actor} approved {task}', values);
    case 'task_declined':
      return t(language, p.reason ? '{actor} declined {task}: {reason}' : '{actor} declined {task}; it is ongoing again', values);
    case 'task_comment':
      return t(language, '{actor} commented on {task}: {text}', values);
    case 'task_unassigned':
      return t(language, '{actor} took {task} off your list: it is assigned to someone else', values);
    case 'deadline_reminder':
      return t(language, '{task} is due tomorrow ({due})', values);
    case 'approval_delay': {
      const hours = language === 'en' ? str(p.hours) : formatNumber(Number(p.hours), language);
      const duration = p.hours === 1 ? t(language, '1 hour') : t(language, '{hours} hours', { hours });
      return t(language, p.submitter ? '{task} from {submitter} has been waiting for approval for more than {duration}' : '{task} has been waiting for approval for more than {duration}', {
        ...values,
        duration,
      });
    }
    case 'task_overdue':
      return t(language, p.assignee ? '{task}, assigned to {assignee}, is overdue: it was due {due}' : '{task} is overdue: it was due {due}', values);
    case 'daily_log_reminder':
      return t(language, 'The daily log of {project} for {date} is not signed yet', { project: str(p.project), date: formatDateOnly(str(p.date), language) });
  }
}

/** The English text of a notification, as stored beside its params. */
export const englishText = (type: NotificationType, p: NotificationParams): string => notificationText(type, p, 'en');

/** The params with the person they name shown by `name` (their current full name), or as stored when there is none. */
export function withPersonName(p: NotificationParams, name: string | null): NotificationParams {
  if (!name) return p;
  const key = PERSON_PARAMS.find(([, idKey]) => p[idKey] !== null && p[idKey] !== undefined)?.[0];
  return key ? { ...p, [key]: name } : p;
}

/** A stored notification as the queries read it: `personName` is the current full name of the person it names, if any. */
export interface StoredNotification {
  type: string;
  message: string;
  params: NotificationParams | null;
  personName: string | null;
}

/** The current name of the person who acted, when the notification is of someone's act and they have a name. */
export const actorNameOf = (row: StoredNotification): string | null => (row.params?.actor_id !== null && row.params?.actor_id !== undefined ? row.personName : null);

/**
 * What a reader sees of a stored notification, wherever it is read (the list, the live push, the
 * mails): the text rendered in their language from its params with the person's current name, or
 * the English text as written for a row written before params were kept.
 */
export function textFor(row: StoredNotification, language: Language): string {
  if (!row.params) return row.message;
  return notificationText(row.type as NotificationType, withPersonName(row.params, row.personName), language);
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
  daily_log_reminder: ['projectManagerId'],
  // Its former assignee, named by the event (the parties are as they are now).
  task_unassigned: [],
};

/**
 * Who hears of what (DESIGN "Notifications the server creates"): the assignee of an assignment,
 * approval, decline or reminder; the approvers (project manager and assigner) of a submission or
 * a delay; every other party of a comment; the project's manager of an overdue subtask or of a
 * day without a signed daily log.
 * Nobody is told of their own act, and each person once.
 */
export function recipientsOf(type: NotificationType, parties: Parties, actorId: number | null): number[] {
  const candidates = WHO_HEARS[type].map((part) => parties[part]);
  const excluded = type === 'approval_delay' ? parties.assigneeId : actorId;
  return [...new Set(candidates.filter((id): id is number => id !== null && id !== excluded))];
}
