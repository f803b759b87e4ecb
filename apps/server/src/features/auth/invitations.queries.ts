import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Invitation, Language } from '@siteboard/shared';
import { MAIL_QUEUE, type DbOrTx } from '../../platform';
import { companies } from '../../schema/companies';
import { invitations, passwordResets } from '../../schema/invitations';
import { jobs } from '../../schema/jobs';
import { users } from '../../schema/users';

type AssignableRole = Invitation['role'];

const pending = and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));

const invitationColumns = {
  id: invitations.id,
  email: invitations.email,
  role: invitations.role,
  fullName: invitations.fullName,
  managerId: invitations.managerId,
  expiresAt: invitations.expiresAt,
  createdAt: invitations.createdAt,
  // An invitation of before the language was asked is written in the company's, as it was then.
  language: sql<string>`coalesce(${invitations.language}, (select c.default_language from companies c where c.id = ${invitations.companyId}))`,
};

type InvitationRow = { id: number; email: string; role: string; fullName: string | null; managerId: number | null; expiresAt: Date | string; createdAt: Date | string; language: string };
/** Its latest mail's job, when it is still kept: where it is, its last reason, and when. */
type MailColumns = { mailStatus?: string | null; mailError?: string | null; mailAcceptedAt?: string | null; mailRunAt?: Date | string | null; mailAttempts?: number | null; mailFinishedAt?: Date | string | null; mailCreatedAt?: Date | string | null };

const iso = (value: Date | string) => new Date(value).toISOString();

/**
 * What the server knows of the mail (decision record 127). A job that failed after the SMTP server
 * accepted its mail (its completion refused past the bound, record 114) sent it, as the failed-mail
 * list says too.
 */
function deliveryOf(row: MailColumns): Invitation['delivery'] {
  if (!row.mailStatus) return null;
  if (row.mailAcceptedAt || row.mailStatus === 'done') return { state: 'sent', at: iso(row.mailAcceptedAt ?? row.mailFinishedAt ?? row.mailCreatedAt!), error: null };
  if (row.mailStatus === 'failed') return { state: 'undelivered', at: iso(row.mailFinishedAt ?? row.mailCreatedAt!), error: row.mailError ?? '' };
  // Queued or running: an attempt that failed says why, and when the next one is while it is still to
  // come (a running job, or one due and waiting for a runner, keeps the run_at that has gone by).
  const retried = (row.mailAttempts ?? 0) > 0 && row.mailError != null;
  const next = retried && row.mailStatus === 'queued' && row.mailRunAt && new Date(row.mailRunAt).getTime() > Date.now() ? iso(row.mailRunAt) : null;
  return { state: 'sending', at: next, error: retried ? row.mailError! : null };
}

export function toInvitation(row: InvitationRow & MailColumns): Invitation {
  const delivery = deliveryOf(row);
  return {
    id: row.id,
    email: row.email,
    role: row.role as AssignableRole,
    full_name: row.fullName,
    manager_id: row.managerId,
    expires_at: iso(row.expiresAt),
    created_at: iso(row.createdAt),
    language: row.language as Language,
    undelivered: delivery?.state === 'undelivered' ? { error: delivery.error!, failed_at: delivery.at! } : null,
    delivery,
  };
}

/** Ends the pending invitation of this address, if any: a new one replaces it. */
export async function revokePendingFor(db: DbOrTx, companyId: number, email: string) {
  // Two invitations of one address at once take turns (the second replaces the first), instead of both inserting a pending one.
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`invitation:${companyId}:${email.toLowerCase()}`}, 0))`);
  await db
    .update(invitations)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(invitations.companyId, companyId), eq(sql`lower(${invitations.email})`, email.toLowerCase()), pending));
}

export async function insertInvitation(
  db: DbOrTx,
  values: { companyId: number; email: string; role: AssignableRole; fullName: string | null; managerId: number | null; invitedBy: number; language?: Language; tokenHash: string; hours: number },
) {
  const { hours, ...row } = values;
  const [inserted] = await db
    .insert(invitations)
    .values({ ...row, expiresAt: sql`now() + make_interval(hours => ${hours})` })
    .returning(invitationColumns);
  return toInvitation(inserted!);
}

/** Which mail job an invitation's latest link went out in (its first mail, or a resend). */
export async function setInvitationMailJob(db: DbOrTx, id: number, jobId: number) {
  await db.update(invitations).set({ mailJobId: jobId }).where(eq(invitations.id, id));
}

/**
 * The company's invitations still waiting to be accepted (expired ones too: an admin resends them),
 * oldest first, each with what is known of its latest mail: one statement.
 */
export async function listPendingInvitations(db: DbOrTx, companyId: number, limit: number) {
  const rows = await db
    .select({
      ...invitationColumns,
      mailStatus: jobs.status,
      mailError: jobs.lastError,
      mailAcceptedAt: sql<string | null>`${jobs.checkpoint}->>'accepted_at'`,
      mailRunAt: jobs.runAt,
      mailAttempts: jobs.attempts,
      mailFinishedAt: jobs.finishedAt,
      mailCreatedAt: jobs.createdAt,
    })
    .from(invitations)
    .leftJoin(jobs, and(eq(jobs.id, invitations.mailJobId), eq(jobs.queue, MAIL_QUEUE)))
    .where(and(eq(invitations.companyId, companyId), pending))
    .orderBy(asc(invitations.createdAt), asc(invitations.id))
    .limit(limit);
  return rows.map(toInvitation);
}

/** How many of the company's pending invitations (expired ones too: an admin may resend them) join this manager's team. */
export async function countPendingInvitationsTo(db: DbOrTx, companyId: number, managerId: number): Promise<number> {
  return db.$count(invitations, and(eq(invitations.companyId, companyId), eq(invitations.managerId, managerId), pending));
}

/** A pending invitation of the company gets a new link and a new expiry (resend); answers it, or undefined. */
export async function renewInvitation(db: DbOrTx, companyId: number, id: number, tokenHash: string, hours: number) {
  const [row] = await db
    .update(invitations)
    .set({ tokenHash, expiresAt: sql`now() + make_interval(hours => ${hours})` })
    .where(and(eq(invitations.companyId, companyId), eq(invitations.id, id), pending))
    .returning(invitationColumns);
  return row && toInvitation(row);
}

/** Whether the company has this invitation still pending (expired ones too: they are resent or revoked). */
export async function pendingInvitationExists(db: DbOrTx, companyId: number, id: number): Promise<boolean> {
  const rows = await db.select({ id: invitations.id }).from(invitations).where(and(eq(invitations.companyId, companyId), eq(invitations.id, id), pending));
  return rows.length > 0;
}

export async function revokeInvitation(db: DbOrTx, companyId: number, id: number): Promise<boolean> {
  const rows = await db
    .update(invitations)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(invitations.companyId, companyId), eq(invitations.id, id), pending))
    .returning({ id: invitations.id });
  return rows.length > 0;
}

/** The invitation a link's token opens, while it still may be used; `lock` holds it until the transaction ends. */
export async function findUsableInvitation(db: DbOrTx, tokenHash: string, lock = false) {
  const query = db
    .select({ ...invitationColumns, companyId: invitations.companyId, companyName: companies.name })
    .from(invitations)
    .innerJoin(companies, eq(companies.id, invitations.companyId))
    .where(and(eq(invitations.tokenHash, tokenHash), pending, gt(invitations.expiresAt, sql`now()`)));
  const [row] = lock ? await query.for('update', { of: invitations }) : await query;
  return row;
}

export async function markInvitationAccepted(db: DbOrTx, id: number) {
  await db.update(invitations).set({ acceptedAt: sql`now()` }).where(eq(invitations.id, id));
}

/** A user's display name for mails: their full name, else the part of their e-mail before the @. */
export async function findSender(db: DbOrTx, companyId: number, userId: number) {
  const [row] = await db
    .select({ fullName: users.fullName, email: users.email, language: users.language, companyName: companies.name })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(users.companyId, companyId), eq(users.id, userId)));
  return row;
}

/** The account a forgotten-password request names, with what its mail needs; undefined when there is none. */
export async function findResetAccount(db: DbOrTx, companyId: number, email: string) {
  const [row] = await db
    .select({ id: users.id, email: users.email, fullName: users.fullName, language: users.language, companyName: companies.name })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(users.companyId, companyId), eq(sql`lower(${users.email})`, email.toLowerCase()), isNull(users.deletedAt)));
  return row;
}

export async function insertPasswordReset(db: DbOrTx, userId: number, tokenHash: string, hours: number) {
  await db.insert(passwordResets).values({ userId, tokenHash, expiresAt: sql`now() + make_interval(hours => ${hours})` });
}

/**
 * Spends a reset link in one conditional UPDATE (of two concurrent uses exactly one matches), and
 * every other unused link of that user with it. Answers the user, or undefined.
 */
export async function spendPasswordReset(db: DbOrTx, tokenHash: string) {
  const [row] = await db
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .from(users)
    .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`), eq(users.id, passwordResets.userId), isNull(users.deletedAt)))
    .returning({ userId: users.id, companyId: users.companyId });
  if (row) await db.update(passwordResets).set({ usedAt: sql`now()` }).where(and(eq(passwordResets.userId, row.userId), isNull(passwordResets.usedAt)));
  return row;
}
