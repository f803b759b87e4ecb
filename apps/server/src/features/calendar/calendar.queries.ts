import { and, asc, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { CALENDAR_FEED_DAYS_AHEAD, CALENDAR_FEED_DAYS_BACK, CALENDAR_FEED_MAX_EVENTS, type Role, type SubtaskStatus, type Language } from '@siteboard/shared';
import { type DbOrTx, builtOncePerDatabase } from '../../platform';
import { calendarFeeds } from '../../schema/calendar';
import { companies } from '../../schema/companies';
import { projects } from '../../schema/projects';
import { majorTasks, subtasks } from '../../schema/tasks';
import { users } from '../../schema/users';
import { isoTimestamp } from '../../lib/json-sql';
import { localDate } from '../../lib/time';

const assignees = alias(users, 'assignees');

export interface FeedSettings {
  nonce: string;
  tokenHash: string;
  includeTeamApprovals: boolean;
}

/** The user's feed, if it is on. */
export async function findFeed(db: DbOrTx, companyId: number, userId: number): Promise<FeedSettings | undefined> {
  const [row] = await db
    .select({ nonce: calendarFeeds.nonce, tokenHash: calendarFeeds.tokenHash, includeTeamApprovals: calendarFeeds.includeTeamApprovals })
    .from(calendarFeeds)
    .where(and(eq(calendarFeeds.companyId, companyId), eq(calendarFeeds.userId, userId)));
  return row;
}

/**
 * Turns the user's feed on under a new nonce (the old URL finds nothing from now on), in one
 * statement; the option changes only when given. Answers the feed and whether it was created.
 */
export async function saveFeed(db: DbOrTx, values: { companyId: number; userId: number; nonce: string; tokenHash: string; includeTeamApprovals?: boolean }) {
  const option = values.includeTeamApprovals === undefined ? {} : { includeTeamApprovals: values.includeTeamApprovals };
  const [row] = await db
    .insert(calendarFeeds)
    .values({ companyId: values.companyId, userId: values.userId, nonce: values.nonce, tokenHash: values.tokenHash, ...option })
    .onConflictDoUpdate({ target: calendarFeeds.userId, set: { nonce: values.nonce, tokenHash: values.tokenHash, ...option } })
    // xmax is 0 only on a freshly inserted row version.
    .returning({ includeTeamApprovals: calendarFeeds.includeTeamApprovals, created: sql<boolean>`(xmax = 0)` });
  return row!;
}

/** Sets the feed's option, keeping its URL; undefined when the feed is off. */
export async function updateFeedOption(db: DbOrTx, companyId: number, userId: number, includeTeamApprovals: boolean): Promise<FeedSettings | undefined> {
  const [row] = await db
    .update(calendarFeeds)
    .set({ includeTeamApprovals })
    .where(and(eq(calendarFeeds.companyId, companyId), eq(calendarFeeds.userId, userId)))
    .returning({ nonce: calendarFeeds.nonce, tokenHash: calendarFeeds.tokenHash, includeTeamApprovals: calendarFeeds.includeTeamApprovals });
  return row;
}

export async function deleteFeed(db: DbOrTx, companyId: number, userId: number) {
  await db.delete(calendarFeeds).where(and(eq(calendarFeeds.companyId, companyId), eq(calendarFeeds.userId, userId)));
}

/** Whose feed it is. */
export interface FeedOwner {
  userId: number;
  nonce: string;
  role: Role;
  /** The owner's time zone: their own, else the company's. */
  timezone: string;
  /** The language the feed's words are written in: the owner's. */
  language: Language;
}

/** One subtask of a feed. */
export interface FeedEntry {
  id: number;
  name: string;
  /** Never completed: a feed holds open work only. */
  status: Exclude<SubtaskStatus, 'completed'>;
  dueDate: string;
  majorTask: string;
  project: string;
  /** The assignee by their current full name, else their e-mail. */
  assignee: string | null;
  /** Whether the subtask is the owner's own (else it waits for their approval). */
  mine: boolean;
  /** When what a calendar shows of the subtask last changed (or it was created), ISO 8601. */
  changedAt: string;
  /** The event's revision: 0 as created, one more at every change a calendar shows. */
  sequence: number;
}

/**
 * The feed whose token hash this is, with its subtasks due in its window, soonest due first, at
 * most CALENDAR_FEED_MAX_EVENTS of them, in one statement: the
 * owner's open subtasks, and with the option a manager's subtasks waiting for their approval
 * (those of projects they manage or that they assigned, as the pending approvals list has them).
 * Only a feed of an active user is found. Work without a due date has no day to be shown on, and
 * work in a completed project can no longer be done: neither is in a feed.
 */
const feedStatement = builtOncePerDatabase((db) => {
  const owner = db.$with('owner').as(
    db
      .select({
        userId: calendarFeeds.userId,
        companyId: calendarFeeds.companyId,
        nonce: calendarFeeds.nonce,
        withApprovals: sql<boolean>`(${calendarFeeds.includeTeamApprovals} and ${users.role} = 'manager')`.as('with_approvals'),
        role: users.role,
        // The owner's own zone, else the company's; the feed's words in the owner's language.
        timezone: sql<string>`coalesce(${users.timezone}, ${companies.timezone})`.as('timezone'),
        language: sql<Language>`${users.language}`.as('language'),
        today: sql<string>`${localDate(sql`coalesce(${users.timezone}, ${companies.timezone})`)}`.as('today'),
      })
      .from(calendarFeeds)
      .innerJoin(users, and(eq(users.id, calendarFeeds.userId), eq(users.companyId, calendarFeeds.companyId), isNull(users.deletedAt)))
      .innerJoin(companies, eq(companies.id, calendarFeeds.companyId))
      .where(eq(calendarFeeds.tokenHash, sql.placeholder('tokenHash'))),
  );
  // Only work due in the feed's window of the owner's today (decision record 115): what a calendar
  // shows around now, and a bounded feed however much dated work someone has.
  const inWindow = sql`${subtasks.dueDate} between ${owner.today} - ${sql.raw(String(CALENDAR_FEED_DAYS_BACK))} and ${owner.today} + ${sql.raw(String(CALENDAR_FEED_DAYS_AHEAD))}`;
  // Each part on its own index, then united: one OR across them read every open subtask of the company.
  const own = db
    .select({ id: subtasks.id })
    .from(subtasks)
    .innerJoin(owner, and(eq(subtasks.companyId, owner.companyId), eq(subtasks.assignedToId, owner.userId)))
    .where(and(inArray(subtasks.status, ['ongoing', 'pending_approval']), inWindow));
  const assignedByOwner = db
    .select({ id: subtasks.id })
    .from(subtasks)
    .innerJoin(owner, and(eq(subtasks.companyId, owner.companyId), eq(subtasks.assignedById, owner.userId), owner.withApprovals))
    .where(and(eq(subtasks.status, 'pending_approval'), inWindow));
  const inOwnersProjects = db
    .select({ id: subtasks.id })
    .from(subtasks)
    .innerJoin(majorTasks, eq(majorTasks.id, subtasks.majorTaskId))
    .innerJoin(projects, eq(projects.id, majorTasks.projectId))
    .innerJoin(owner, and(eq(projects.companyId, owner.companyId), eq(projects.managerId, owner.userId), owner.withApprovals))
    .where(and(eq(subtasks.companyId, owner.companyId), eq(subtasks.status, 'pending_approval'), inWindow));
  const entries = db
    .select({
      id: sql<number>`${subtasks.id}`.as('subtask_id'),
      name: subtasks.name,
      status: subtasks.status,
      dueDate: subtasks.dueDate,
      assignedToId: subtasks.assignedToId,
      majorTask: sql<string>`${majorTasks.name}`.as('major_task'),
      project: sql<string>`${projects.name}`.as('project'),
      // As people name them: the full name, else the e-mail (issue 42).
      assignee: sql<string | null>`coalesce(${assignees.fullName}, ${assignees.email})`.as('assignee'),
      changedAt: sql<string>`${isoTimestamp(subtasks.changedAt)}`.as('changed_at'),
      sequence: sql<number>`${subtasks.calendarSequence}`.as('calendar_sequence'),
    })
    .from(subtasks)
    .innerJoin(majorTasks, eq(majorTasks.id, subtasks.majorTaskId))
    .innerJoin(projects, eq(projects.id, majorTasks.projectId))
    .leftJoin(assignees, eq(assignees.id, subtasks.assignedToId))
    .where(and(sql`${subtasks.id} in (${own} union ${assignedByOwner} union ${inOwnersProjects})`, isNotNull(subtasks.dueDate), ne(projects.status, 'completed')))
    .as('entries');
  return db
    .with(owner)
    .select({
      userId: owner.userId,
      nonce: owner.nonce,
      role: owner.role,
      timezone: owner.timezone,
      language: owner.language,
      entry: {
        id: entries.id,
        name: entries.name,
        status: sql<FeedEntry['status']>`${entries.status}`,
        dueDate: sql<string>`${entries.dueDate}`,
        majorTask: entries.majorTask,
        project: entries.project,
        assignee: entries.assignee,
        mine: sql<boolean>`(${entries.assignedToId} = ${owner.userId})`,
        changedAt: entries.changedAt,
        sequence: entries.sequence,
      },
    })
    .from(owner)
    .leftJoin(entries, sql`true`)
    .orderBy(asc(entries.dueDate), asc(entries.id))
    .limit(CALENDAR_FEED_MAX_EVENTS)
    .prepare('read_calendar_feed');
});

/** The feed of an active user whose token hash this is, with its subtasks; undefined when there is none. */
export async function readFeed(db: DbOrTx, tokenHash: string): Promise<{ owner: FeedOwner; entries: FeedEntry[] } | undefined> {
  const rows = await feedStatement(db).execute({ tokenHash });
  const [first] = rows;
  if (!first) return undefined;
  const owner = { userId: first.userId, nonce: first.nonce, role: first.role, timezone: first.timezone, language: first.language };
  // With no subtask the one row is the owner's, its entry fields null (the left join).
  const entries = rows.flatMap((row) => (row.entry === null ? [] : [row.entry]));
  return { owner, entries };
}
