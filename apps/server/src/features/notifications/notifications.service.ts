import type { z } from 'zod';
import { SYSTEM_AUTHOR, type markReadInput, type NotificationRecord, type notificationListQuery, type NotificationType } from '@siteboard/shared';
import type { Db, Tx } from '../../db/client';
import type { ServiceContext } from '../../lib/context';
import { ForbiddenError } from '../../lib/errors';
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
  type NotificationDraft,
} from './notifications.queries';
import { params, recipientsOf, type NotificationParams } from './notifications.rules';

type ListQuery = z.output<typeof notificationListQuery>;
type MarkRead = z.output<typeof markReadInput>;

export const NOT_YOUR_NOTIFICATIONS = 'You may only read your own notifications.';

export async function listNotifications(ctx: ServiceContext, query: ListQuery): Promise<NotificationRecord[]> {
  if (query.email !== undefined && query.email.trim().toLowerCase() !== ctx.user.email.toLowerCase()) throw new ForbiddenError(NOT_YOUR_NOTIFICATIONS);
  return listNotificationsOf(ctx.db, ctx.user.companyId, ctx.user.id, query.limit, ctx.user.language);
}

export async function markRead(ctx: ServiceContext, input: MarkRead): Promise<{ updated: number }> {
  return { updated: await markNotificationsRead(ctx.db, ctx.user.companyId, ctx.user.id, input?.ids) };
}

type Party = Awaited<ReturnType<typeof findSubtaskParties>>[number];

/** One notification per subtask of the event, to whoever the rules say, written in the event's transaction: two statements. */
async function notifyOfSubtasks(tx: Tx, actor: EventActor, subtaskIds: number[], type: NotificationType, paramsOf: (party: Party) => NotificationParams) {
  const parties = await findSubtaskParties(tx, actor.companyId, subtaskIds);
  await insertNotifications(
    tx,
    parties.map((party) => ({
      companyId: actor.companyId,
      type,
      params: paramsOf(party),
      createdBy: actor.email,
      subtaskId: party.id,
      dedupeKey: null,
      recipients: recipientsOf(type, party, actor.id),
    })),
  );
}

const onAssigned = (tx: Tx, { actor, subtaskIds }: AppEvents['subtasks.assigned']) =>
  notifyOfSubtasks(tx, actor, subtaskIds, 'task_assignment', (party) => params.taskAssignment(actor.email, party, party.dueDate));
const onSubmitted = (tx: Tx, { actor, subtaskId, comment }: AppEvents['subtask.submitted']) =>
  notifyOfSubtasks(tx, actor, [subtaskId], 'task_submission', (party) => params.taskSubmission(actor.email, party, comment));
const onApproved = (tx: Tx, { actor, subtaskId }: AppEvents['subtask.approved']) =>
  notifyOfSubtasks(tx, actor, [subtaskId], 'task_approved', (party) => params.taskApproved(actor.email, party));
const onDeclined = (tx: Tx, { actor, subtaskId, comment }: AppEvents['subtask.declined']) =>
  notifyOfSubtasks(tx, actor, [subtaskId], 'task_declined', (party) => params.taskDeclined(actor.email, party, comment));
const onCommented = (tx: Tx, { actor, subtaskId, text }: AppEvents['subtask.commented']) =>
  notifyOfSubtasks(tx, actor, [subtaskId], 'task_comment', (party) => params.taskComment(actor.email, party, text));

/** Idempotent: the handlers are module functions, so subscribing again (another app in the process) changes nothing. */
export function subscribeToTaskEvents(): void {
  events.on('subtasks.assigned', onAssigned);
  events.on('subtask.submitted', onSubmitted);
  events.on('subtask.approved', onApproved);
  events.on('subtask.declined', onDeclined);
  events.on('subtask.commented', onCommented);
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
 * embedded database's memory grew by ~400 MB that it never gives back (decision record 016).
 */
export const SWEEP_BATCH = 2_000;

export type SweepResult = { swept: false } | { swept: true; deadlineReminders: number; approvalDelays: number; overdue: number; created: number };

/**
 * deadline_reminder, approval_delay and task_overdue for every company, in transactions of six
 * statements that each take up to `batchSize` subtasks of each kind, until none is left. A deadline reminder goes out once per subtask and due
 * date, from `reminderLocalHour` on the eve of the due date where its assignee is (their time
 * zone, else the company's), so one company spanning UTC−10 to UTC+14 reminds each person at the
 * start of their own working day. Another instance already sweeping → nothing happens (or, between
 * two batches, this one stops and leaves the rest to it); a second sweep the same day finds nothing
 * left to send (and the unique dedupe key would refuse it). An overdue subtask is reported once per due date.
 */
export async function runSweeps(db: Db, options: SweepOptions): Promise<SweepResult> {
  const batchSize = options.batchSize ?? SWEEP_BATCH;
  let total: SweepResult = { swept: false };
  for (;;) {
    const batch = await sweepBatch(db, options, batchSize);
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
    if (Math.max(batch.deadlineReminders, batch.approvalDelays, batch.overdue) < batchSize) return total;
  }
}

/** One transaction of the sweep: up to `limit` subtasks of each kind. */
function sweepBatch(db: Db, { now, approvalDelayHours, reminderLocalHour = DEFAULT_REMINDER_LOCAL_HOUR }: SweepOptions, limit: number): Promise<SweepResult> {
  return db.transaction(async (tx) => {
    if (!(await tryLockSweeps(tx))) return { swept: false };
    const due = await findDeadlineCandidates(tx, now, reminderLocalHour, limit);
    const delayed = await findApprovalDelayCandidates(tx, now, new Date(now.getTime() - approvalDelayHours * 3_600_000), limit);
    const overdue = await findOverdueCandidates(tx, now, limit);
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
        params: params.approvalDelay(party, party.assigneeEmail, approvalDelayHours),
        createdBy: SYSTEM_AUTHOR,
        subtaskId: party.id,
        dedupeKey: party.dedupeKey,
        recipients: recipientsOf('approval_delay', party, null),
      })),
      ...overdue.map((party) => ({
        companyId: party.companyId,
        type: 'task_overdue' as const,
        params: params.taskOverdue(party, party.assigneeEmail, party.dueDate!),
        createdBy: SYSTEM_AUTHOR,
        subtaskId: party.id,
        dedupeKey: party.dedupeKey,
        recipients: recipientsOf('task_overdue', party, null),
      })),
    ];
    return { swept: true, deadlineReminders: due.length, approvalDelays: delayed.length, overdue: overdue.length, created: await insertNotifications(tx, drafts) };
  });
}
