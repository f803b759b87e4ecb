import type { z } from 'zod';
import { notificationListQuery, SYSTEM_AUTHOR, type markReadInput, type NotificationRecord, type NotificationType } from '@siteboard/shared';
import { type Database, type Db, type DbOrTx, type Guard, type Tx, type ServiceContext, ForbiddenError, NotFoundError, enqueueJob } from '../../platform';
import { events, type AppEvents, type EventActor } from '../../lib/events';
import {
  findApprovalDelayCandidates,
  findDeadlineCandidates,
  findOverdueCandidates,
  findSubtaskParties,
  insertNotifications,
  listNotificationsOf,
  markNotificationsRead,
  tryLockSweeps,
  NOTIFICATION_MAIL_QUEUE,
  type NotificationDraft,
  type NotificationMailJob,
} from './notifications.queries';
import { findDailyLogReminderCandidates } from '../daily-logs/daily-logs.queries';
import { isEmailTaken } from '../users/users.queries';
import { USER_NOT_FOUND } from '../users/users.rules';
import { params, recipientsOf, type NotificationParams } from './notifications.rules';

type ListQuery = z.output<typeof notificationListQuery>;
type MarkRead = z.output<typeof markReadInput>;

export const NOT_YOUR_NOTIFICATIONS = 'You may only read your own notifications.';

/**
 * An `email` in the query that is not the caller's is refused as a path naming that person would
 * be, before the rest of the query is read (authorisation before validation): a colleague's is a
 * 403, anyone else's (another company's, no one's) a 404; only the refusal asks who it is.
 */
export const ownNotificationsAsked: Guard = async (request) => {
  // A value validation refuses (control characters, too long) is validation's to answer: 400.
  const email = notificationListQuery.shape.email.safeParse((request.query as Record<string, unknown> | undefined)?.email);
  if (!email.success || email.data === undefined || email.data.trim().toLowerCase() === request.user.email.toLowerCase()) return;
  if (await isEmailTaken(request.ctx.db, request.user.companyId, email.data.trim())) throw new ForbiddenError(NOT_YOUR_NOTIFICATIONS);
  throw new NotFoundError(USER_NOT_FOUND);
};

/** The caller's newest notifications (`ownNotificationsAsked` has refused anyone else's). */
export async function listNotifications(ctx: ServiceContext, query: ListQuery): Promise<NotificationRecord[]> {
  return listNotificationsOf(ctx.db, ctx.user.companyId, ctx.user.id, query.limit, ctx.user.language);
}

export async function markRead(ctx: ServiceContext, input: MarkRead): Promise<{ updated: number }> {
  return { updated: await markNotificationsRead(ctx.db, ctx.user.companyId, ctx.user.id, input?.ids, input?.up_to_id) };
}

type Party = Awaited<ReturnType<typeof findSubtaskParties>>[number];

/**
 * Writes the notifications and, when some recipient takes them by e-mail as they happen, one job
 * naming them in the same transaction: the mail exists if and only if the notification does, and
 * the job (which knows PUBLIC_URL and the unsubscribe key, as these stateless handlers do not)
 * writes each recipient's mail (decision record 079). One statement, two when someone is mailed.
 */
async function writeNotifications(tx: DbOrTx, drafts: NotificationDraft[]): Promise<number> {
  const { created, mailed } = await insertNotifications(tx, drafts);
  if (mailed.length > 0) {
    const job: NotificationMailJob = { notifications: mailed };
    await enqueueJob(tx, NOTIFICATION_MAIL_QUEUE, job, { companyId: drafts.every((draft) => draft.companyId === drafts[0]!.companyId) ? drafts[0]!.companyId : null });
  }
  return created;
}

/** One notification per subtask of the event, to whoever the rules say (or `to`), written in the event's transaction: two statements. */
async function notifyOfSubtasks(tx: Tx, actor: EventActor, subtaskIds: number[], type: NotificationType, paramsOf: (party: Party) => NotificationParams, to?: number[]) {
  const parties = await findSubtaskParties(tx, actor.companyId, subtaskIds);
  await writeNotifications(
    tx,
    parties.map((party) => ({
      companyId: actor.companyId,
      type,
      params: paramsOf(party),
      createdBy: actor.email,
      subtaskId: party.id,
      dedupeKey: null,
      recipients: to ? to.filter((id) => id !== actor.id) : recipientsOf(type, party, actor.id),
    })),
  );
}

const onAssigned = (tx: Tx, { actor, subtaskIds }: AppEvents['subtasks.assigned']) =>
  notifyOfSubtasks(tx, actor, subtaskIds, 'task_assignment', (party) => params.taskAssignment(actor, party, party.dueDate));
const onSubmitted = (tx: Tx, { actor, subtaskId, comment }: AppEvents['subtask.submitted']) =>
  notifyOfSubtasks(tx, actor, [subtaskId], 'task_submission', (party) => params.taskSubmission(actor, party, comment));
const onApproved = (tx: Tx, { actor, subtaskId }: AppEvents['subtask.approved']) =>
  notifyOfSubtasks(tx, actor, [subtaskId], 'task_approved', (party) => params.taskApproved(actor, party));
const onDeclined = (tx: Tx, { actor, subtaskId, comment }: AppEvents['subtask.declined']) =>
  notifyOfSubtasks(tx, actor, [subtaskId], 'task_declined', (party) => params.taskDeclined(actor, party, comment));
const onCommented = (tx: Tx, { actor, subtaskId, text }: AppEvents['subtask.commented']) =>
  notifyOfSubtasks(tx, actor, [subtaskId], 'task_comment', (party) => params.taskComment(actor, party, text));
const onUnassigned = (tx: Tx, { actor, subtaskId, formerAssigneeId }: AppEvents['subtask.unassigned']) =>
  notifyOfSubtasks(tx, actor, [subtaskId], 'task_unassigned', (party) => params.taskUnassigned(actor, party), [formerAssigneeId]);

/** Idempotent: the handlers are module functions, so subscribing again (another app in the process) changes nothing. */
export function subscribeToTaskEvents(): void {
  events.on('subtasks.assigned', onAssigned);
  events.on('subtask.submitted', onSubmitted);
  events.on('subtask.approved', onApproved);
  events.on('subtask.declined', onDeclined);
  events.on('subtask.commented', onCommented);
  events.on('subtask.unassigned', onUnassigned);
}

/** Reminders go out from 07:00 in each recipient's zone: the start of a site's working day. */
export const DEFAULT_REMINDER_LOCAL_HOUR = 7;

export interface SweepOptions {
  /** The clock: tests pass any instant. */
  now: Date;
  approvalDelayHours: number;
  /** The local hour deadline reminders go out from, in each recipient's zone (7 unless given). */
  reminderLocalHour?: number;
  /** At most this many subtasks of each kind per transaction (SWEEP_BATCH unless given). */
  batchSize?: number;
}

/**
 * A sweep's transactions take at most this many subtasks of each kind: a first sweep over a large
 * company (87,252 reminders in the large bench data) made them all in one statement, and the
 * embedded database's memory grew by ~400 MB that it never gives back (decision record 016). The
 * largest transaction sets the high-water mark of PGlite's WebAssembly memory: 2,000 a kind touched
 * 26 MB more of it than at start, 500 a kind 9 MB; with each batch starting after the last id of
 * the one before, smaller batches cost the sweep no time.
 */
export const SWEEP_BATCH = 500;

/**
 * On the embedded database every request waits while a sweep's transaction holds its one session:
 * there a batch takes 100 subtasks of each kind. Measured on the large data's first sweep (86,084
 * notifications, a project list read every 0.1 s meanwhile): a batch held the session 200–840 ms at
 * 500 and ~100 ms at 100; the reads' p90 fell from 311 to 96 ms and their longest wait from 753 to
 * 389 ms, while the sweep took 60 s instead of 43 s (it let more reads through). PostgreSQL serves
 * other requests on other connections meanwhile and keeps SWEEP_BATCH.
 */
export const EMBEDDED_SWEEP_BATCH = 100;

/** The sweeps' batch size on this kind of database. */
export const sweepBatchFor = (kind: Database['kind']) => (kind === 'pglite' ? EMBEDDED_SWEEP_BATCH : SWEEP_BATCH);

export type SweepResult = { swept: false } | { swept: true; deadlineReminders: number; approvalDelays: number; overdue: number; created: number };

/** Where each kind's next batch starts: after this subtask id; null once a batch came back short (none left). */
interface SweepCursor {
  deadline: number | null;
  delay: number | null;
  overdue: number | null;
}

/**
 * deadline_reminder, approval_delay and task_overdue for every company, in transactions of six
 * statements (fewer once a kind is done) that each take up to `batchSize` subtasks of each kind,
 * in the order of their ids, each batch after the last id of the one before, until every kind's
 * batch comes back short. A deadline reminder goes out once per subtask and due
 * date, from `reminderLocalHour` on the eve of the due date where its assignee is (their time
 * zone, else the company's), so one company spanning UTC−10 to UTC+14 reminds each person at the
 * start of their own working day. Another instance already sweeping → nothing happens (or, between
 * two batches, this one stops and leaves the rest to it); a second sweep the same day finds nothing
 * left to send (and the unique dedupe key would refuse it). An overdue subtask is reported once per due date.
 * A subtask that becomes a candidate behind the cursor while a sweep runs waits for the next sweep.
 */
export async function runSweeps(db: Db, options: SweepOptions): Promise<SweepResult> {
  const batchSize = options.batchSize ?? SWEEP_BATCH;
  const cursor: SweepCursor = { deadline: 0, delay: 0, overdue: 0 };
  let total: SweepResult = { swept: false };
  while (cursor.deadline !== null || cursor.delay !== null || cursor.overdue !== null) {
    const batch = await sweepBatch(db, options, batchSize, cursor);
    if (!batch.swept) return total;
    total = total.swept
      ? {
          swept: true,
          deadlineReminders: total.deadlineReminders + batch.deadlineReminders,
          approvalDelays: total.approvalDelays + batch.approvalDelays,
          overdue: total.overdue + batch.overdue,
          created: total.created + batch.created,
        }
      : batch;
  }
  return total;
}

/** The subtask's active assignee, whom a delay or an overdue report names. */
const assigneeOf = (party: Party) => (party.assigneeId !== null && party.assigneeEmail !== null ? { id: party.assigneeId, email: party.assigneeEmail } : null);

/** The last id of a kind's batch, or null when the batch was short: nothing of that kind is left. */
const next = (batch: { id: number }[], limit: number) => (batch.length < limit ? null : batch[batch.length - 1]!.id);

/** One transaction of the sweep: up to `limit` subtasks of each kind not yet done, after the cursor's ids; moves the cursor. */
function sweepBatch(db: Db, { now, approvalDelayHours, reminderLocalHour = DEFAULT_REMINDER_LOCAL_HOUR }: SweepOptions, limit: number, cursor: SweepCursor): Promise<SweepResult> {
  return db.transaction(async (tx) => {
    if (!(await tryLockSweeps(tx))) return { swept: false };
    const due = cursor.deadline === null ? [] : await findDeadlineCandidates(tx, now, reminderLocalHour, limit, cursor.deadline);
    const delayed = cursor.delay === null ? [] : await findApprovalDelayCandidates(tx, now, new Date(now.getTime() - approvalDelayHours * 3_600_000), limit, cursor.delay);
    const overdue = cursor.overdue === null ? [] : await findOverdueCandidates(tx, now, limit, cursor.overdue);
    const drafts: NotificationDraft[] = [
      ...due.map((party) => ({
        companyId: party.companyId,
        type: 'deadline_reminder' as const,
        params: params.deadlineReminder(party, party.dueDate!),
        createdBy: SYSTEM_AUTHOR,
        subtaskId: party.id,
        dedupeKey: party.dedupeKey,
        recipients: recipientsOf('deadline_reminder', party, null),
      })),
      ...delayed.map((party) => ({
        companyId: party.companyId,
        type: 'approval_delay' as const,
        params: params.approvalDelay(party, assigneeOf(party), approvalDelayHours),
        createdBy: SYSTEM_AUTHOR,
        subtaskId: party.id,
        dedupeKey: party.dedupeKey,
        recipients: recipientsOf('approval_delay', party, null),
      })),
      ...overdue.map((party) => ({
        companyId: party.companyId,
        type: 'task_overdue' as const,
        params: params.taskOverdue(party, assigneeOf(party), party.dueDate!),
        createdBy: SYSTEM_AUTHOR,
        subtaskId: party.id,
        dedupeKey: party.dedupeKey,
        recipients: recipientsOf('task_overdue', party, null),
      })),
    ];
    const created = await writeNotifications(tx, drafts);
    // Moved only once the batch's statements have all succeeded (a failed one ends the sweep anyway).
    if (cursor.deadline !== null) cursor.deadline = next(due, limit);
    if (cursor.delay !== null) cursor.delay = next(delayed, limit);
    if (cursor.overdue !== null) cursor.overdue = next(overdue, limit);
    return { swept: true, deadlineReminders: due.length, approvalDelays: delayed.length, overdue: overdue.length, created };
  });
}

export type DailyLogReminderResult = { swept: false } | { swept: true; dailyLogReminders: number; created: number };

/** Daily-log reminders go out from 18:00 in each project manager's zone: the end of a site's day. */
export const DEFAULT_DAILY_LOG_REMINDER_LOCAL_HOUR = 18;

/**
 * daily_log_reminder for every company: a project not completed, on one of its working days
 * (Monday to Friday, or a day someone opened its log) between its start and end dates, with no
 * signed log once its manager's day reaches `localHour` in their zone (else the company's), tells
 * its manager once per day (the dedupe key `daily_log_reminder:<project>:<date>`). As the other
 * sweeps: one instance at a time (the same advisory lock), in transactions of `batchSize` projects
 * in the order of their ids.
 */
export async function runDailyLogReminders(db: Db, options: { now: Date; localHour?: number; batchSize?: number }): Promise<DailyLogReminderResult> {
  const limit = options.batchSize ?? SWEEP_BATCH;
  let afterId: number | null = 0;
  let result: DailyLogReminderResult = { swept: false };
  while (afterId !== null) {
    const after: number = afterId;
    const batch = await db.transaction(async (tx) => {
      if (!(await tryLockSweeps(tx))) return null;
      const due = await findDailyLogReminderCandidates(tx, options.now, options.localHour ?? DEFAULT_DAILY_LOG_REMINDER_LOCAL_HOUR, limit, after);
      const created = await writeNotifications(
        tx,
        due.map((project) => ({
          companyId: project.companyId,
          type: 'daily_log_reminder' as const,
          params: params.dailyLogReminder(project.projectName, project.date),
          createdBy: SYSTEM_AUTHOR,
          subtaskId: null,
          dedupeKey: project.dedupeKey,
          recipients: recipientsOf('daily_log_reminder', { assigneeId: null, assignerId: null, projectManagerId: project.managerId }, null),
        })),
      );
      return { due, created };
    });
    if (!batch) return result;
    result = { swept: true, dailyLogReminders: (result.swept ? result.dailyLogReminders : 0) + batch.due.length, created: (result.swept ? result.created : 0) + batch.created };
    afterId = next(batch.due, limit);
  }
  return result;
}
