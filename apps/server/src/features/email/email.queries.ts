import { and, eq, isNull, sql, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from '../../platform';
import { companies } from '../../schema/companies';
import { users } from '../../schema/users';
import type { Role } from '@siteboard/shared';
import { namedPersonId } from '../notifications/notifications.queries';
import type { StoredNotification } from '../notifications/notifications.rules';

const rowsOf = <Row>(result: unknown): Row[] => (result as { rows: Row[] }).rows;

/** A person's open subtasks due on `today` or before it, in projects still running (`s`, `m`, `p`): what a digest lists, and whether it has anything to. */
const openWorkDueBy = (companyId: SQLWrapper | number, userId: SQLWrapper | number, today: SQLWrapper | string) => sql`
  from subtasks s join major_tasks m on m.id = s.major_task_id join projects p on p.id = m.project_id
  where s.company_id = ${companyId} and s.assigned_to_id = ${userId} and s.status <> 'completed' and p.status <> 'completed' and s.due_date <= ${today}::date`;

/**
 * The next page (ids after `afterId`) of the people whose digest is due now: it is `localHour` in
 * their zone (else their company's), they take daily digests, they have not had today's yet (its
 * job's dedupe key), and they have something to be told (an open subtask due by today, an unread
 * notification); each with their local date, the digest's day.
 */
export async function findDigestRecipients(db: DbOrTx, now: Date, localHour: number, limit: number, afterId = 0) {
  const localNow = sql`timezone(coalesce(${users.timezone}, ${companies.timezone}), ${now.toISOString()}::timestamptz)`;
  const today = sql`(${localNow})::date`;
  return db
    .select({
      id: users.id,
      companyId: users.companyId,
      email: users.email,
      fullName: users.fullName,
      role: users.role,
      language: users.language,
      companyName: companies.name,
      today: sql<string>`(${localNow})::date::text`,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(
      and(
        sql`${users.id} > ${afterId}`,
        isNull(users.deletedAt),
        eq(users.emailNotifications, 'daily'),
        sql`extract(hour from ${localNow}) = ${localHour}`,
        sql`not exists (select 1 from jobs j where j.dedupe_key = 'digest:' || ${users.id} || ':' || ${today}::text)`,
        sql`(exists (select 1 from notification_recipients r where r.user_id = ${users.id} and not r.is_read)
          or exists (select 1 ${openWorkDueBy(users.companyId, users.id, today)}))`,
      ),
    )
    .orderBy(users.id)
    .limit(limit);
}

export interface DigestTask {
  id: number;
  name: string;
  project: string;
  due: string;
}

/** Whose digest is being written: a person of a company, and their local date. */
export interface DigestReader {
  id: number;
  companyId: number;
  today: string;
}

/** The readers as a table of the statement (`who`: user_id, company_id, today). */
const readersTable = (readers: DigestReader[]) =>
  sql`json_to_recordset(${JSON.stringify(readers.map((reader) => ({ user_id: reader.id, company_id: reader.companyId, today: reader.today })))}::json) as who(user_id int, company_id int, today date)`;

/** Each reader's open subtasks due on their `today` or before it, in projects still running (openWorkDueBy), at most 100 each: one statement for them all. */
export async function findDigestTasks(db: DbOrTx, readers: DigestReader[]): Promise<(DigestTask & { userId: number })[]> {
  if (readers.length === 0) return [];
  return rowsOf(
    await db.execute(sql`
      select who.user_id as "userId", t.id, t.name, t.project, t.due
      from ${readersTable(readers)}
      cross join lateral (
        select s.id, s.name, p.name as project, s.due_date::text as due ${openWorkDueBy(sql`who.company_id`, sql`who.user_id`, sql`who.today`)}
        order by s.due_date, s.id limit 100
      ) t
      order by who.user_id, t.due, t.id`),
  );
}

export type DigestNotification = StoredNotification & { subtaskId: number | null };

/** Each reader's unread notifications, newest first, at most 50 each, with the current name of the person each names: one statement for them all. */
export async function findUnreadNotifications(db: DbOrTx, readers: DigestReader[]): Promise<(DigestNotification & { userId: number })[]> {
  if (readers.length === 0) return [];
  return rowsOf(
    await db.execute(sql`
      select who.user_id as "userId", u.*
      from ${readersTable(readers)}
      cross join lateral (
        select n.type, n.params, n.message, n.subtask_id as "subtaskId", named.full_name as "personName", r.created_at, r.id
        from notification_recipients r join notifications n on n.id = r.notification_id
        left join users named on named.id = ${namedPersonId(sql`n.params`)} and named.company_id = n.company_id
        where r.company_id = who.company_id and r.user_id = who.user_id and not r.is_read
        order by r.created_at desc, r.id desc limit 50
      ) u
      order by who.user_id, u.created_at desc, u.id desc`),
  );
}

/** Whether the user an unsubscribe link names is still active (a link names a user, not a company). */
export async function isActiveUser(db: DbOrTx, userId: number): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(and(eq(users.id, userId), isNull(users.deletedAt)));
  return rows.length > 0;
}

/** One-click unsubscribe: daily digests and immediate mails off. */
export async function turnOffEmailNotifications(db: DbOrTx, userId: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ emailNotifications: 'off' })
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .returning({ id: users.id });
  return rows.length > 0;
}

export interface ImmediateMailRow {
  recipientId: number;
  userId: number;
  companyId: number;
  email: string;
  fullName: string | null;
  role: Role;
  language: string;
  timezone: string;
  companyName: string;
  type: string;
  params: Record<string, string | number | null> | null;
  message: string;
  subtaskId: number | null;
  createdAt: string;
  /** The actor's name as it is now (the notification keeps the address it was written with). */
  actorName: string | null;
}

/**
 * Each recipient of these notifications who takes them by e-mail as they happen (active, choice
 * `immediate` now), with what their mail needs: one statement for the whole fan-out.
 */
export async function findImmediateMails(db: DbOrTx, notificationIds: number[]) {
  if (notificationIds.length === 0) return [];
  return rowsOf<ImmediateMailRow>(
    await db.execute(sql`
      select r.id as "recipientId", u.id as "userId", u.company_id as "companyId", u.email, u.full_name as "fullName", u.role, u.language,
        coalesce(u.timezone, c.timezone) as timezone, c.name as "companyName", n.type, n.params, n.message, n.subtask_id as "subtaskId",
        to_char(n.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt", actor.full_name as "actorName"
      from notification_recipients r
      join notifications n on n.id = r.notification_id and n.company_id = r.company_id
      join users u on u.id = r.user_id and u.company_id = r.company_id and u.deleted_at is null and u.email_notifications = 'immediate'
      join companies c on c.id = u.company_id
      left join users actor on actor.company_id = n.company_id and lower(actor.email) = lower(n.created_by) and actor.deleted_at is null
      where r.notification_id in (select unnest(${`{${notificationIds.join(',')}}`}::int[]))
      order by r.id`),
  );
}
