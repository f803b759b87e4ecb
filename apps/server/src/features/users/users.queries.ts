import { and, asc, eq, inArray, isNull, ne, or, sql, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { EmailNotifications, Language, Profile, Role, User } from '@siteboard/shared';
import { type DbOrTx, builtOncePerDatabase } from '../../platform';
import { companies } from '../../schema/companies';
import { refreshTokens } from '../../schema/auth';
import { deleteFeed } from '../calendar/calendar.queries';
import { teamMembers, users } from '../../schema/users';
import { containsIgnoringCase, matchingRowCount, toPage, withPage, type Page, type PageRequest } from '../../lib/lists';

const managers = alias(users, 'managers');

const userColumns = {
  id: users.id,
  email: users.email,
  fullName: users.fullName,
  role: users.role,
  code: users.code,
  designation: users.designation,
  mobileNumber: users.mobileNumber,
  companyId: users.companyId,
  companyName: companies.name,
  managerId: users.managerId,
  managerEmail: managers.email,
  mustChangePassword: users.mustChangePassword,
};

type UserRow = { [K in keyof typeof userColumns]: (typeof userColumns)[K]['_']['data'] | null };

function toUser(row: UserRow): User {
  return {
    id: row.id!,
    email: row.email!,
    full_name: row.fullName,
    role: row.role!,
    code: row.code!,
    designation: row.designation,
    mobile_number: row.mobileNumber,
    company: { id: row.companyId!, name: row.companyName! },
    company_id: row.companyId!,
    manager_id: row.managerId,
    manager_data: row.managerEmail ? { email: row.managerEmail } : null,
    must_change_password: row.mustChangePassword ?? false,
  };
}

function selectUsers(db: DbOrTx) {
  return db
    .select(userColumns)
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(managers, eq(managers.id, users.managerId));
}

export async function findUser(db: DbOrTx, companyId: number, userId: number): Promise<User | undefined> {
  const [row] = await selectUsers(db).where(and(eq(users.companyId, companyId), eq(users.id, userId), isNull(users.deletedAt)));
  return row && toUser(row);
}

/** Whether the id names a user of the company, in any state (one who left is still who their past work was assigned to). */
export async function userExists(db: DbOrTx, companyId: number, userId: number): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(and(eq(users.companyId, companyId), eq(users.id, userId)));
  return rows.length > 0;
}

/** The signed-in user with their language and time zones: what `GET /api/profile/` answers. */
/** The profile statement, built once and prepared: every screen's start asks for it (decision record 006). */
const profileStatement = builtOncePerDatabase((db) =>
  db
    .select({ ...userColumns, language: users.language, languageChosen: users.languageChosen, timezone: users.timezone, companyTimezone: companies.timezone, emailNotifications: users.emailNotifications })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(managers, eq(managers.id, users.managerId))
    .where(and(eq(users.companyId, sql.placeholder('companyId')), eq(users.id, sql.placeholder('userId')), isNull(users.deletedAt)))
    .prepare('find_profile'),
);

export async function findProfile(db: DbOrTx, companyId: number, userId: number): Promise<Profile | undefined> {
  const [row] = await profileStatement(db).execute({ companyId, userId });
  return (
    row && {
      ...toUser(row),
      language: row.language as Language,
      language_chosen: row.languageChosen,
      timezone: row.timezone,
      effective_timezone: row.timezone ?? row.companyTimezone,
      email_notifications: row.emailNotifications as EmailNotifications,
    }
  );
}

/** A user's own language (then chosen), time zone (null: the company's) and notification e-mails; answers whether the user was there to change. */
export async function updateOwnSettings(
  db: DbOrTx,
  companyId: number,
  userId: number,
  values: { language?: Language; timezone?: string | null; emailNotifications?: EmailNotifications; fullName?: string | null },
): Promise<boolean> {
  const rows = await db
    .update(users)
    .set(values.language === undefined ? values : { ...values, languageChosen: true })
    .where(and(eq(users.companyId, companyId), eq(users.id, userId), isNull(users.deletedAt)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** The only place a password hash is read. */
export async function findLoginCandidate(db: DbOrTx, companyId: number, email: string) {
  const [row] = await db
    .select({ id: users.id, role: users.role, passwordHash: users.passwordHash, mustChangePassword: users.mustChangePassword })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(sql`lower(${users.email})`, email.toLowerCase()), isNull(users.deletedAt)));
  return row;
}

/** An active user's password hash, for checking the current password before a change. */
export async function findPasswordHash(db: DbOrTx, companyId: number, userId: number, options: { lock?: boolean } = {}): Promise<string | undefined> {
  const query = db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.id, userId), isNull(users.deletedAt)));
  // Locked, a new password (replacePassword's update) waits for this transaction, or this one reads it once committed.
  const [row] = options.lock ? await query.for('share') : await query;
  return row?.passwordHash;
}

/**
 * A new password for an active user, and what goes with it: every login ends but `keepFamily`
 * (the caller's own, when they change their own password), and the calendar feed's secret URL,
 * a credential too, stops working. `mustChange`: they must replace it at their next sign-in.
 * Answers whether the user was found (then nothing else changed). Every way a password changes
 * (an admin sets it, one's own change, the e-mailed reset) goes through here.
 */
export async function replacePassword(
  db: DbOrTx,
  companyId: number,
  userId: number,
  change: { passwordHash: string; mustChange: boolean; keepFamily?: string },
): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ passwordHash: change.passwordHash, mustChangePassword: change.mustChange })
    .where(and(eq(users.companyId, companyId), eq(users.id, userId), isNull(users.deletedAt)))
    .returning({ id: users.id });
  if (rows.length === 0) return false;
  await revokeUserRefreshTokens(db, userId, change.keepFamily);
  await deleteFeed(db, companyId, userId);
  return true;
}

export async function insertUser(
  db: DbOrTx,
  values: {
    companyId: number;
    email: string;
    fullName?: string | null;
    passwordHash: string;
    role: Role;
    code: string;
    managerId?: number | null;
    designation?: string | null;
    mobileNumber?: string | null;
    mustChangePassword?: boolean;
    /** The company's first admin signed up in its language: theirs is chosen. */
    languageChosen?: boolean;
    /** The language their invitation was written in; else the company's. */
    language?: Language | null;
  },
) {
  // A new user starts in their invitation's language, else their company's (not chosen: their device's is taken at sign-in, decision record 124).
  const { language: invited, ...row } = values;
  const language = invited ?? sql`(select ${companies.defaultLanguage} from ${companies} where ${companies.id} = ${values.companyId})`;
  const [inserted] = await db
    .insert(users)
    .values({ ...row, language })
    .returning({ id: users.id });
  return inserted!;
}

/** An active user of the company with their role: for checking ids that arrive in bodies (assignees, managers). */
export async function findActiveMember(db: DbOrTx, companyId: number, userId: number, options: { lock?: boolean } = {}) {
  const query = db
    .select({ id: users.id, email: users.email, role: users.role, managerId: users.managerId })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.id, userId), isNull(users.deletedAt)));
  // Locked, they stay active until the transaction ends: deleting them (deleteUser locks the row) waits, then sees what it made.
  const [row] = options.lock ? await query.for('share') : await query;
  return row;
}

/**
 * Whether a body names someone who is not a user of the company (another company's, or none): that
 * is a 404, as in a path or a list's filter (decision record 120), where one of the company who may
 * not be chosen (who has left, of another role) is the field's error. Asked once a check has refused.
 */
export async function namesAStranger(db: DbOrTx, companyId: number, userIds: number[]): Promise<boolean> {
  const ids = [...new Set(userIds)];
  const found = await db.select({ id: users.id }).from(users).where(and(eq(users.companyId, companyId), inArray(users.id, ids)));
  return found.length < ids.length;
}

/** The unique index behind "one active account per e-mail in a company": a lost race surfaces as its violation. */
export const ACTIVE_EMAIL_INDEX = 'users_company_email_active_key';

/**
 * People in the order a person looks them up: by the name the screens show (the full name, else the
 * e-mail), letters of either case together; the id keeps equal names in a stable order.
 */
export const byShownName = (person: { fullName: SQLWrapper; email: SQLWrapper }) => sql`lower(coalesce(${person.fullName}, ${person.email}))`;

export interface UserFilter {
  roles?: Role[];
  /** A case-insensitive substring of the e-mail. */
  search?: string;
  /** This manager's own team members come first. */
  teamOf?: number;
}

/** The company's matching active users by name or e-mail, each with its company and manager joined in: one statement for the page and its total. */
export async function listActiveUsers(db: DbOrTx, companyId: number, filter: UserFilter = {}, page: PageRequest = {}): Promise<Page<User>> {
  const conditions = [eq(users.companyId, companyId), isNull(users.deletedAt)];
  if (filter.roles) conditions.push(inArray(users.role, filter.roles));
  // People look for a colleague by the name the screens show ("Jérôme"), as much as by e-mail.
  if (filter.search) conditions.push(or(containsIgnoringCase(users.email, filter.search), containsIgnoringCase(users.fullName, filter.search))!);
  const query = db
    .select({ ...userColumns, total: matchingRowCount() })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(managers, eq(managers.id, users.managerId))
    .where(and(...conditions))
    .orderBy(
      ...(filter.teamOf === undefined ? [] : [sql`case when ${users.managerId} = ${filter.teamOf} then 0 else 1 end`]),
      byShownName(users),
      asc(users.id),
    )
    .$dynamic();
  return toPage(await withPage(query, page), page, toUser, () => db.$count(users, and(...conditions)));
}

export async function isEmailTaken(db: DbOrTx, companyId: number, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(sql`lower(${users.email})`, email.toLowerCase()), isNull(users.deletedAt)))
    .limit(1);
  return row !== undefined;
}

/**
 * The given active users of the company, locked until the transaction ends: a manager checked
 * here cannot be demoted or deleted by a concurrent edit before this one commits, and a manager
 * being demoted or deleted cannot gain a team member meanwhile.
 */
export async function lockActiveMembers(db: DbOrTx, companyId: number, userIds: number[]) {
  return db
    .select({ id: users.id, email: users.email, role: users.role, managerId: users.managerId, code: users.code })
    .from(users)
    .where(and(eq(users.companyId, companyId), inArray(users.id, userIds), isNull(users.deletedAt)))
    .orderBy(asc(users.id))
    .for('update');
}

/** Active team members who report to the manager, through their user row or their team-member record. */
export async function countActiveReports(db: DbOrTx, companyId: number, managerId: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(users)
    .leftJoin(teamMembers, eq(teamMembers.userId, users.id))
    .where(
      and(
        eq(users.companyId, companyId),
        isNull(users.deletedAt),
        eq(users.role, 'team_member'),
        or(eq(users.managerId, managerId), eq(teamMembers.managerId, managerId)),
      ),
    );
  return row!.count;
}

export async function updateUserRow(
  db: DbOrTx,
  companyId: number,
  userId: number,
  values: { fullName?: string | null; role?: Role; code?: string; managerId?: number | null; designation?: string | null; mobileNumber?: string | null; languageChosen?: boolean },
) {
  await db
    .update(users)
    .set(values)
    .where(and(eq(users.companyId, companyId), eq(users.id, userId), isNull(users.deletedAt)));
}

/** Soft delete: the row stays for the history that names it; the partial unique index frees the e-mail. */
export async function softDeleteUser(db: DbOrTx, companyId: number, userId: number) {
  await db
    .update(users)
    .set({ deletedAt: sql`now()` })
    .where(and(eq(users.companyId, companyId), eq(users.id, userId), isNull(users.deletedAt)));
}

/**
 * Ends every login of the user but `keepFamily` (the caller's own, when they change their own
 * password): their refresh tokens stop rotating and (through the revoked family) their access
 * tokens stop working; migration 0007's trigger tells every instance's identity cache.
 */
export async function revokeUserRefreshTokens(db: DbOrTx, userId: number, keepFamily?: string) {
  const conditions = [eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)];
  if (keepFamily !== undefined) conditions.push(ne(refreshTokens.family, keepFamily));
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(...conditions));
}

/** Takes the company's next user number; the row lock makes concurrent creations take different numbers. */
export async function takeNextUserNumber(db: DbOrTx, companyId: number): Promise<number> {
  const [row] = await db
    .update(companies)
    .set({ userCodeSeq: sql`${companies.userCodeSeq} + 1` })
    .where(eq(companies.id, companyId))
    .returning({ seq: companies.userCodeSeq });
  return row!.seq;
}
