import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  EMAIL_NOT_CONFIGURED,
  INVITATION_GONE,
  INVITATION_HOURS,
  INVITED_EMAIL_TAKEN,
  PASSWORD_RESET_HOURS,
  RESET_LINK_GONE,
  type AcceptInvitationAnswer,
  type acceptInvitationInput,
  type createInvitationInput,
  type Invitation,
  type InvitationPreview,
  type Language,
  type passwordResetConfirmInput,
  type passwordResetInput,
} from '@siteboard/shared';
import type { z } from 'zod';
import { type Db, type DbOrTx, type ServiceContext, AppError, ConflictError, NotFoundError, enqueueJob, enqueueMail, fieldError, foundInCompany, isUniqueViolation, settleChanges } from '../../platform';
import { hashPassword } from '../../lib/passwords';
import { upsertTeamMember } from '../users/team.queries';
import { ACTIVE_EMAIL_INDEX, findActiveMember, findUser, insertUser, isEmailTaken, namesAStranger, replacePassword, takeNextUserNumber } from '../users/users.queries';
import { MANAGER_INVALID, USER_NOT_FOUND, managerLinkFor, userCode } from '../users/users.rules';
import { invitationLink, invitationMail, passwordResetLink, passwordResetMail, signInLink } from './auth.mails';
import { issueTokenPair } from './auth.service';
import type { LoginThrottle } from './auth.throttle';
import type { Tokens } from './auth.tokens';
import {
  findResetAccount,
  findSender,
  findUsableInvitation,
  insertInvitation,
  insertPasswordReset,
  listPendingInvitations,
  markInvitationAccepted,
  pendingInvitationExists,
  renewInvitation,
  revokeInvitation,
  revokePendingFor,
  setInvitationMailJob,
  spendPasswordReset,
  toInvitation,
} from './invitations.queries';

/** What sending links by mail needs: whether mail is on, and where the links point. */
export interface MailLinks {
  configured: boolean;
  publicUrl: string;
}

/** A used, revoked or expired link: gone for good (410), not a missing page. */
class GoneError extends AppError {
  constructor(detail: string) {
    super(410, detail);
  }
}

/** 256 random bits for the link; only their SHA-256 is stored. */
function newToken() {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

const PENDING_LIST_MAX = 500;

function requireMail(mail: MailLinks) {
  if (!mail.configured) throw new ConflictError(EMAIL_NOT_CONFIGURED);
}

/** Queues the invitation's mail; answers the invitation as it now is, its mail waiting in the outbox. */
async function queueInvitationMail(tx: DbOrTx, ctx: ServiceContext, mail: MailLinks, invitation: Invitation, token: string): Promise<Invitation> {
  const sender = (await findSender(tx, ctx.user.companyId, ctx.user.id))!;
  // The language the inviter chose for the person.
  const language = invitation.language;
  const rendered = invitationMail({
    language,
    company: sender.companyName,
    // Not the company's name in its place: "SiteBoard Demo invited you to join SiteBoard Demo" reads as a slip.
    inviter: sender.fullName,
    fullName: invitation.full_name,
    role: invitation.role,
    url: invitationLink(mail.publicUrl, token),
    signIn: signInLink(mail.publicUrl, ctx.user.companyId),
    hours: INVITATION_HOURS,
  });
  const jobId = await enqueueMail(tx, { kind: 'invitation', to: { name: invitation.full_name, address: invitation.email }, ...rendered }, { companyId: ctx.user.companyId });
  // The pending list reads this mail's fate from its job: a new link's mail replaces an older one's failure.
  await setInvitationMailJob(tx, invitation.id, jobId);
  return { ...invitation, delivery: { state: 'sending', at: null, error: null } };
}

/** An admin invites a person by e-mail: the invitation and its mail are written together. */
export async function invite(ctx: ServiceContext, mail: MailLinks, input: z.output<typeof createInvitationInput>): Promise<Invitation> {
  requireMail(mail);
  const { companyId } = ctx.user;
  if (await isEmailTaken(ctx.db, companyId, input.email)) throw new ConflictError(INVITED_EMAIL_TAKEN);
  const { token, hash } = newToken();
  // Left out, the person is invited in the inviter's own language (the form offers it first).
  const language = input.language ?? (await findSender(ctx.db, companyId, ctx.user.id))!.language;
  return ctx.db.transaction(async (tx) => {
    // The manager stays active until the invitation is stored: deleting them waits, then sees it and refuses.
    if (input.manager_id != null && (await findActiveMember(tx, companyId, input.manager_id, { lock: true }))?.role !== 'manager') {
      if (await namesAStranger(tx, companyId, [input.manager_id])) throw new NotFoundError(USER_NOT_FOUND);
      throw fieldError('manager_id', MANAGER_INVALID);
    }
    await revokePendingFor(tx, companyId, input.email);
    const invitation = await insertInvitation(tx, {
      companyId,
      email: input.email,
      role: input.role,
      fullName: input.full_name,
      managerId: managerLinkFor(input.role, input.manager_id),
      invitedBy: ctx.user.id,
      language: language as Language,
      tokenHash: hash,
      hours: INVITATION_HOURS,
    });
    return queueInvitationMail(tx, ctx, mail, invitation, token);
  });
}

export function listInvitations(ctx: ServiceContext): Promise<Invitation[]> {
  return listPendingInvitations(ctx.db, ctx.user.companyId, PENDING_LIST_MAX);
}

/** A new link (the old one stops working) with a new 72 hours, mailed again. */
export async function resendInvitation(ctx: ServiceContext, mail: MailLinks, id: number): Promise<void> {
  requireMail(mail);
  const { token, hash } = newToken();
  await ctx.db.transaction(async (tx) => {
    const invitation = await renewInvitation(tx, ctx.user.companyId, id, hash, INVITATION_HOURS);
    if (!invitation) throw new NotFoundError();
    await queueInvitationMail(tx, ctx, mail, invitation, token);
  });
}

/** Guard: another company's invitation, or one accepted or revoked, is a 404 before the body is read or mail is asked for. */
export const invitationFound = foundInCompany(pendingInvitationExists, 'Not found.');

export async function deleteInvitation(ctx: ServiceContext, id: number): Promise<void> {
  if (!(await revokeInvitation(ctx.db, ctx.user.companyId, id))) throw new NotFoundError();
}

/** What the accept page shows; a link that no longer works is 410. */
export async function previewInvitation(db: Db, token: string): Promise<InvitationPreview> {
  const row = await findUsableInvitation(db, hashToken(token));
  if (!row) throw new GoneError(INVITATION_GONE);
  return { email: row.email, company: { id: row.companyId, name: row.companyName }, role: toInvitation(row).role, full_name: row.fullName };
}

/**
 * The invited person sets their password: the user is created, the invitation spent and a login
 * issued in one transaction, with the invitation row locked so a second use waits and then finds
 * it spent (410).
 */
export async function acceptInvitation(deps: { db: Db; tokens: Tokens }, input: z.output<typeof acceptInvitationInput>): Promise<AcceptInvitationAnswer> {
  const passwordHash = await hashPassword(input.password);
  try {
    return await deps.db.transaction(async (tx) => {
      const invitation = await findUsableInvitation(tx, hashToken(input.token), true);
      if (!invitation) throw new GoneError(INVITATION_GONE);
      const { companyId } = invitation;
      if (await isEmailTaken(tx, companyId, invitation.email)) throw new ConflictError(INVITED_EMAIL_TAKEN);
      if (invitation.managerId !== null && (await findActiveMember(tx, companyId, invitation.managerId))?.role !== 'manager') throw new ConflictError(MANAGER_INVALID);
      const role = toInvitation(invitation).role;
      const number = await takeNextUserNumber(tx, companyId);
      const { id } = await insertUser(tx, {
        companyId,
        email: invitation.email,
        fullName: input.full_name ?? invitation.fullName,
        passwordHash,
        role,
        code: userCode(role, number),
        managerId: invitation.managerId,
        // The inviter's choice, until the person's device says otherwise at their first sign-in (decision record 124).
        language: invitation.language as Language,
      });
      if (invitation.managerId !== null) await upsertTeamMember(tx, { companyId, userId: id, managerId: invitation.managerId });
      await markInvitationAccepted(tx, invitation.id);
      const pair = await issueTokenPair(tx, deps.tokens, { userId: id, companyId, family: randomUUID() });
      return { ...pair, user: (await findUser(tx, companyId, id))! };
    });
  } catch (error) {
    if (isUniqueViolation(error, ACTIVE_EMAIL_INDEX)) throw new ConflictError(INVITED_EMAIL_TAKEN);
    throw error;
  }
}

/** Where a forgotten password's mail is made: after the answer, whether the account exists or not. */
export const PASSWORD_RESET_QUEUE = 'password-reset';

/** What a password-reset job is asked: the address as it was typed, in that company. */
export interface PasswordResetRequest {
  companyId: number;
  email: string;
}

/**
 * A forgotten password: counted on the sign-in throttle (per address and per account), and
 * answered the same whether the account exists or not, after the same work: the request only
 * queues a job (one insert), which looks the account up and, when it exists, mails a one-hour
 * link. Looking it up here made a known address's answer measurably slower than an unknown one's.
 */
export async function requestPasswordReset(
  deps: { db: Db; throttle: LoginThrottle; mail: MailLinks },
  input: z.output<typeof passwordResetInput>,
  clientKey: string,
): Promise<void> {
  await deps.throttle.countAttempt(clientKey, `reset:${input.company_id}:${input.email.toLowerCase()}`);
  if (!deps.mail.configured) return;
  await enqueueJob(deps.db, PASSWORD_RESET_QUEUE, { companyId: input.company_id, email: input.email } satisfies PasswordResetRequest);
}

/** The password-reset job: a one-hour link mailed to the account, if there is one. */
export async function mailPasswordReset(db: Db, mail: MailLinks, request: PasswordResetRequest): Promise<void> {
  const account = await findResetAccount(db, request.companyId, request.email);
  if (!account) return;
  const { token, hash } = newToken();
  const rendered = passwordResetMail({ language: account.language as Language, company: account.companyName, fullName: account.fullName, url: passwordResetLink(mail.publicUrl, token) });
  await db.transaction(async (tx) => {
    await insertPasswordReset(tx, account.id, hash, PASSWORD_RESET_HOURS);
    await enqueueMail(tx, { kind: 'password_reset', to: { name: account.fullName, address: account.email }, ...rendered }, { companyId: request.companyId });
  });
}

/** A new password through the link: the link and its siblings are spent, and every session of the user ends. */
export async function confirmPasswordReset(db: Db, input: z.output<typeof passwordResetConfirmInput>): Promise<void> {
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    const spent = await spendPasswordReset(tx, hashToken(input.token));
    if (!spent) throw new GoneError(RESET_LINK_GONE);
    await replacePassword(tx, spent.companyId, spent.userId, { passwordHash, mustChange: false });
  });
  // Every instance has forgotten the old logins before the answer goes out.
  await settleChanges(db);
}
