import { and, desc, eq, gt, inArray, isNotNull, isNull, lte, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Language, NotificationRecord, NotificationType } from '@siteboard/shared';
import { type DbOrTx, builtOncePerDatabase, CHANGES_CHANNEL } from '../../platform';
import { companies } from '../../schema/companies';
import { notificationRecipients, notifications } from '../../schema/notifications';
import { projects } from '../../schema/projects';
import { majorTasks, subtasks } from '../../schema/tasks';
import { users } from '../../schema/users';
import { isoTimestamp } from '../../lib/json-sql';
import { actorNameOf, englishText, PERSON_PARAMS, textFor, type NotificationParams, type StoredNotification } from './notifications.rules';
import { localDate } from '../../lib/time';

/** The change feed's kind for a new notification: `n:{"id":…,"company":…,"users":[…]}`. */
export const NOTIFICATION_KIND = 'n';

/** What its announcement carries: ids only, a few dozen bytes (the limit is 8,000). */
export interface NotificationAnnouncement {
  id: number;
  company: number;
  users: number[];
}

/** Taken inside the sweep transaction, so only one instance sweeps at a time; released on commit. */
const SWEEP_LOCK_KEY = 0x5b_0a_4d_01;

function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}

// A person counts only while active: a soft-deleted user hears of nothing.
const activeAssignees = alias(users, 'active_assignees');
const activeAssigners = alias(users, 'active_assigners');
const activeManagers = alias(users, 'active_managers');

/** The subtasks, with their names and the active people involved, in one statement. */
export function findSubtaskParties(db: DbOrTx, companyId: number, subtaskIds: number[]) {
  if (subtaskIds.length === 0) return Promise.resolve([]);
  return selectParties(db).where(and(eq(subtasks.companyId, companyId), inArray(subtasks.id, subtaskIds)));
}

function selectParties<Extra extends Record<string, SQL.Aliased>>(db: DbOrTx, extra: Extra = {} as Extra) {
  return db
    .select({
      id: subtasks.id,
      companyId: subtasks.companyId,
      name: subtasks.name,
      projectName: projects.name,
      dueDate: subtasks.dueDate,
      assigneeId: activeAssignees.id,
      assigneeEmail: activeAssignees.email,
      assignerId: activeAssigners.id,
      projectManagerId: activeManagers.id,
      ...extra,
    })
    .from(subtasks)
    .innerJoin(majorTasks, eq(majorTasks.id, subtasks.majorTaskId))
    .innerJoin(projects, eq(projects.id, majorTasks.projectId))
    .innerJoin(companies, eq(companies.id, subtasks.companyId))
    .leftJoin(activeAssignees, and(eq(activeAssignees.id, subtasks.assignedToId), isNull(activeAssignees.deletedAt)))
    .leftJoin(activeAssigners, and(eq(activeAssigners.id, subtasks.assignedById), isNull(activeAssigners.deletedAt)))
    .leftJoin(activeManagers, and(eq(activeManagers.id, projects.managerId), isNull(activeManagers.deletedAt)));
}

/** The calendar date at `now` in each company's time zone. */
const companyToday = (now: Date) => localDate(companies.timezone, now);

/** "<type>:<subtask id>:<company's date>": one notification of a kind per subtask per day. */
const dailyKey = (type: NotificationType, now: Date) => sql<string>`${type}::text || ':' || ${subtasks.id} || ':' || ${companyToday(now)}::text`;
const notYetSent = (key: SQL) => sql`not exists (select 1 from ${notifications} where ${notifications.dedupeKey} = ${key})`;

/**
 * The sweeps' candidates come in the order of their ids, `limit` at a time, each batch after the
 * last id of the one before (`afterId`, 0 for the first): a batch reads only its own rows, not
 * again every subtask an earlier batch already sent.
 */
const batchOf = (afterId: number) => gt(subtasks.id, afterId);

/**
 * Subtasks not completed, in a project not completed, with an active assignee for whom it is now
 * the eve of the due date, `localHour` o'clock or later (in the assignee's own time zone, else the
 * company's), not yet reminded for this due date.
 */
export function findDeadlineCandidates(db: DbOrTx, now: Date, localHour: number, limit: number, afterId = 0) {
  const key = sql<string>`'deadline_reminder:' || ${subtasks.id} || ':' || ${subtasks.dueDate}::text`;
  const assigneeNow = sql`timezone(coalesce(${activeAssignees.timezone}, ${companies.timezone}), ${now.toISOString()}::timestamptz)`;
  return selectParties(db, { dedupeKey: key.as('dedupe_key') }).where(
    and(
      batchOf(afterId),
      ne(subtasks.status, 'completed'),
      ne(projects.status, 'completed'),
      isNotNull(activeAssignees.id),
      // Every zone's date is within a day of UTC's: a range the due-date index can use first.
      sql`${subtasks.dueDate} between ${now.toISOString()}::timestamptz::date and ${now.toISOString()}::timestamptz::date + 2`,
      sql`${subtasks.dueDate} = ${assigneeNow}::date + 1`,
      sql`extract(hour from ${assigneeNow}) >= ${localHour}`,
      notYetSent(key),
    ),
  )
    .orderBy(subtasks.id)
    .limit(limit);
}

/**
 * Subtasks past their due date on their project manager's calendar (their zone, else the
 * company's: the text tells them "it was due …", so it must be past that day where they read it),
 * not completed, in a project not completed, whose project has an active manager, not yet reported
 * for this due date.
 */
export function findOverdueCandidates(db: DbOrTx, now: Date, limit: number, afterId = 0) {
  const key = sql<string>`'task_overdue:' || ${subtasks.id} || ':' || ${subtasks.dueDate}::text`;
  return selectParties(db, { dedupeKey: key.as('dedupe_key') }).where(
    and(
      batchOf(afterId),
      inArray(subtasks.status, ['ongoing', 'pending_approval']),
      ne(projects.status, 'completed'),
      isNotNull(activeManagers.id),
      // Every zone's date is at most a day after UTC's: a range the due-date index can use first.
      sql`${subtasks.dueDate} <= ${localDate(sql`'UTC'`, now)}`,
      sql`${subtasks.dueDate} < ${localDate(sql`coalesce(${activeManagers.timezone}, ${companies.timezone})`, now)}`,
      notYetSent(key),
    ),
  )
    .orderBy(subtasks.id)
    .limit(limit);
}

/** Subtasks pending approval since before `submittedBefore`, in a project not completed, not yet reported today. */
export function findApprovalDelayCandidates(db: DbOrTx, now: Date, submittedBefore: Date, limit: number, afterId = 0) {
  const key = dailyKey('approval_delay', now);
  return selectParties(db, { dedupeKey: key.as('dedupe_key') }).where(
    and(
      batchOf(afterId),
      eq(subtasks.status, 'pending_approval'),
      ne(projects.status, 'completed'),
      sql`${subtasks.submittedAt} <= ${submittedBefore.toISOString()}::timestamptz`,
      notYetSent(key),
    ),
  )
    .orderBy(subtasks.id)
    .limit(limit);
}

/**
 * Takes the sweeps' lock for this transaction, and has its statements planned afresh each time
 * (plan_cache_mode, for this transaction only). The candidates' "not yet sent" test looks the
 * dedupe key up in notifications, which the sweep itself fills: a prepared statement's generic
 * plan, made while the table was (nearly) empty, scanned the whole table for every candidate, so
 * a first sweep of 10,000 reminders took 47 s (each batch longer than the one before) instead of
 * about 1 s. A fresh plan sees the table's size and uses the unique index.
 */
export async function tryLockSweeps(tx: DbOrTx): Promise<boolean> {
  const [row] = rowsOf<{ locked: boolean }>(
    await tx.execute(sql`select pg_try_advisory_xact_lock(${SWEEP_LOCK_KEY}) as locked, set_config('plan_cache_mode', 'force_custom_plan', true) as plans`),
  );
  return row?.locked === true;
}

export interface NotificationDraft {
  companyId: number;
  type: NotificationType;
  /** What the text names; the English text is written from it and kept beside it. */
  params: NotificationParams;
  createdBy: string;
  subtaskId: number | null;
  /** Set by the sweeps: a draft whose key exists already is skipped. */
  dedupeKey: string | null;
  recipients: number[];
}

/**
 * Writes the notifications, their recipients and the NOTIFY announcing each, in ONE statement
 * however many there are. Ids are drawn from the sequence first so recipients can be matched
 * to their notification; a draft whose dedupe key exists is skipped with its recipients and
 * announcement. NOTIFY is delivered on commit and dropped on rollback. Answers how many were
 * written, and which of them have a recipient who takes each notification by e-mail as it
 * happens (decision record 079), found in the same statement.
 */
export async function insertNotifications(tx: DbOrTx, drafts: NotificationDraft[]): Promise<{ created: number; mailed: number[] }> {
  const wanted = drafts.filter((draft) => draft.recipients.length > 0);
  if (wanted.length === 0) return { created: 0, mailed: [] };
  const json = JSON.stringify(
    wanted.map((draft) => ({
      company_id: draft.companyId,
      type: draft.type,
      message: englishText(draft.type, draft.params),
      params: draft.params,
      created_by: draft.createdBy,
      subtask_id: draft.subtaskId,
      dedupe_key: draft.dedupeKey,
      recipients: draft.recipients,
    })),
  );
  const result = await tx.execute(sql`
    with draft as materialized (
      select nextval(pg_get_serial_sequence('notifications', 'id'))::int as id, d.*
      from json_to_recordset(${json}::json)
        as d(company_id int, type text, message text, params jsonb, created_by text, subtask_id int, dedupe_key text, recipients int[])
    ),
    inserted as (
      insert into ${notifications} (id, company_id, type, message, params, created_by, subtask_id, dedupe_key)
      select id, company_id, type, message, params, created_by, subtask_id, dedupe_key from draft
      on conflict (dedupe_key) do nothing
      returning id
    ),
    delivered as (
      insert into ${notificationRecipients} (company_id, notification_id, user_id)
      select draft.company_id, draft.id, recipient.user_id
      from inserted join draft using (id) cross join lateral unnest(draft.recipients) as recipient(user_id)
      returning notification_id, company_id, user_id
    )
    select notification_id as id,
      pg_notify(${CHANGES_CHANNEL}, ${NOTIFICATION_KIND} || ':' || json_build_object('id', notification_id, 'company', delivered.company_id, 'users', json_agg(user_id order by user_id))::text)::text as announced,
      bool_or(${users.emailNotifications} = 'immediate') as mailed
    from delivered join ${users} on ${users.id} = delivered.user_id
    group by notification_id, delivered.company_id
  `);
  const rows = rowsOf<{ id: number; mailed: boolean }>(result);
  return { created: rows.length, mailed: rows.filter((row) => row.mailed).map((row) => row.id) };
}

/** The queue whose jobs turn new notifications into mails for those who take them as they happen (decision record 079). */
export const NOTIFICATION_MAIL_QUEUE = 'notification-mail';

/** What such a job carries: the notifications, each mailed to its recipients who chose `immediate`. */
export interface NotificationMailJob {
  notifications: number[];
}

/** The user id of the person a notification names, from its params (null for none, or a row written before ids were kept). */
export const namedPersonId = (params: SQL | typeof notifications.params) =>
  sql.join([sql`coalesce(`, sql.join(PERSON_PARAMS.map(([, idKey]) => sql`(${params}->>${sql.raw(`'${idKey}'`)})::int`), sql`, `), sql`)`]);

// The person a notification names, as they are now: joined by id within the notification's company.
const namedPeople = alias(users, 'named_people');
const namedPersonJoin = and(eq(namedPeople.id, namedPersonId(notifications.params)), eq(namedPeople.companyId, notifications.companyId));

/**
 * The statement behind listNotificationsOf. Rows, not JSON built by PostgreSQL (which cost it
 * more than the server spends mapping 200 rows); timestamps come formatted as toISOString has them.
 */
const notificationsOfStatement = builtOncePerDatabase((db) =>
  db
    .select({
      id: notificationRecipients.id,
      isRead: notificationRecipients.isRead,
      createdAt: isoTimestamp(notificationRecipients.createdAt),
      type: notifications.type,
      message: notifications.message,
      params: sql<NotificationParams | null>`${notifications.params}`,
      personName: namedPeople.fullName,
      createdBy: notifications.createdBy,
      notificationCreatedAt: isoTimestamp(notifications.createdAt),
      subtaskId: notifications.subtaskId,
    })
    .from(notificationRecipients)
    .innerJoin(notifications, eq(notifications.id, notificationRecipients.notificationId))
    .leftJoin(namedPeople, namedPersonJoin)
    .where(and(eq(notificationRecipients.companyId, sql.placeholder('companyId')), eq(notificationRecipients.userId, sql.placeholder('userId'))))
    .orderBy(desc(notificationRecipients.createdAt), desc(notificationRecipients.id))
    .limit(sql.placeholder('limit'))
    .prepare('list_notifications_of'),
);

/**
 * The user's newest notifications, in one statement built once and prepared (every screen asks
 * for them), each written in the reader's language with the current name of the person it names
 * (joined in the same statement: no lookup per row).
 */
export async function listNotificationsOf(db: DbOrTx, companyId: number, userId: number, limit: number, language: Language): Promise<NotificationRecord[]> {
  const rows = await notificationsOfStatement(db).execute({ companyId, userId, limit });
  return rows.map((row) => ({
    id: row.id,
    is_read: row.isRead,
    created_at: row.createdAt!,
    subtask_id: row.subtaskId,
    notification: { type: row.type as NotificationType, message: textFor(row, language), created_by: row.createdBy, created_by_name: actorNameOf(row), created_at: row.notificationCreatedAt! },
  }));
}

/** Marks the caller's unread notifications read (all, or those of these ids that are theirs); answers how many changed. */
export async function markNotificationsRead(db: DbOrTx, companyId: number, userId: number, ids?: number[], upToId?: number): Promise<number> {
  if (ids?.length === 0) return 0;
  const changed = db.$with('changed').as(
    db
      .update(notificationRecipients)
      .set({ isRead: true, readAt: sql`now()` })
      .where(
        and(
          eq(notificationRecipients.companyId, companyId),
          eq(notificationRecipients.userId, userId),
          eq(notificationRecipients.isRead, false),
          ids ? inArray(notificationRecipients.id, ids) : undefined,
          upToId === undefined ? undefined : lte(notificationRecipients.id, upToId),
        ),
      )
      .returning({ id: notificationRecipients.id }),
  );
  const [row] = await db.with(changed).select({ updated: sql<number>`count(*)::int` }).from(changed);
  return row?.updated ?? 0;
}

/**
 * Announced notifications as each of their (connected) recipients is to receive them, with the
 * language each reads: one statement for a batch of announcements, however many people they name.
 */
export async function findDeliveries(db: DbOrTx, wanted: { id: number; company: number; userId: number }[]) {
  if (wanted.length === 0) return [];
  const json = JSON.stringify(wanted.map((item) => ({ notification_id: item.id, company_id: item.company, user_id: item.userId })));
  const result = await db.execute(sql`
    select ${notificationRecipients.id} as "recipientId", ${notificationRecipients.userId} as "userId", ${notifications.companyId} as "companyId",
      ${users.language} as language, ${notifications.type} as type, ${notifications.message} as message, ${notifications.params} as params,
      ${notifications.createdBy} as "createdBy", ${isoTimestamp(notifications.createdAt)} as "createdAt", ${notifications.subtaskId} as "subtaskId",
      named_people.full_name as "personName"
    from json_to_recordset(${json}::json) as wanted(notification_id int, company_id int, user_id int)
    join ${notifications} on ${notifications.id} = wanted.notification_id and ${notifications.companyId} = wanted.company_id
    join ${notificationRecipients} on ${notificationRecipients.notificationId} = wanted.notification_id
      and ${notificationRecipients.companyId} = wanted.company_id and ${notificationRecipients.userId} = wanted.user_id
    join ${users} on ${users.id} = wanted.user_id
    left join ${users} as named_people on named_people.id = ${namedPersonId(notifications.params)} and named_people.company_id = ${notifications.companyId}
    order by ${notificationRecipients.id}
  `);
  return rowsOf<
    StoredNotification & {
      recipientId: number;
      userId: number;
      companyId: number;
      language: Language;
      createdBy: string;
      createdAt: string;
      subtaskId: number | null;
    }
  >(result);
}
