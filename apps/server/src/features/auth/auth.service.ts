import { createHash, randomUUID } from 'node:crypto';
import { PASSWORD_PROOF_EXPIRED, SAME_PASSWORD, WRONG_CURRENT_PASSWORD, type ChangePasswordInput, type LoginAnswer, type Profile, type TokenInput, type TokenPair, type updateProfileInput } from '@siteboard/shared';
import type { z } from 'zod';
import { type Db, type DbOrTx, type ServiceContext, fieldError, NotFoundError, UnauthorizedError, settleChanges } from '../../platform';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { findLoginCandidate, findPasswordHash, findProfile, replacePassword, updateOwnSettings } from '../users/users.queries';
import { findGraceSuccessor, insertRefreshToken, revokeFamily, spendRefreshToken } from './auth.queries';
import type { DeviceCookie, LoginThrottle, SignInClient } from './auth.throttle';
import { REFRESH_TOKEN_SECONDS, type Tokens } from './auth.tokens';

type UpdateProfile = z.output<typeof updateProfileInput>;

export interface AuthDeps {
  db: Db;
  tokens: Tokens;
  throttle: LoginThrottle;
}

export const INVALID_CREDENTIALS = 'No active account found with the given credentials.';
const INVALID_REFRESH = 'Token is invalid or expired.';

/**
 * One answer for every mismatch (company, e-mail, password, role), so a failure tells nothing.
 * Guesses are counted with device cookies (auth.throttle.ts); a success answers this device's cookie.
 */
export async function login(deps: AuthDeps, input: TokenInput, client: SignInClient): Promise<{ answer: LoginAnswer; device: DeviceCookie }> {
  const accountKey = `${input.company_id}:${input.email.toLowerCase()}`;
  const guess = await deps.throttle.countGuess(client, accountKey);
  const candidate = await findLoginCandidate(deps.db, input.company_id, input.email);
  const passwordMatches = await verifyPassword(candidate?.passwordHash, input.password);
  if (!candidate || !passwordMatches || candidate.role !== input.role) throw new UnauthorizedError(INVALID_CREDENTIALS);
  const device = await guess.succeeded();
  const family = randomUUID();
  // The login is stored only while the password just checked is still theirs: a change or reset
  // committed meanwhile (which ends every login it finds) would otherwise miss this one.
  const pair = await deps.db.transaction(async (tx) => {
    if ((await findPasswordHash(tx, input.company_id, candidate.id, { lock: true })) !== candidate.passwordHash) throw new UnauthorizedError(INVALID_CREDENTIALS);
    return issueTokenPair(tx, deps.tokens, { userId: candidate.id, companyId: input.company_id, family });
  });
  if (!candidate.mustChangePassword) return { answer: { ...pair, must_change_password: false }, device };
  // The password just typed is the one to replace: the forced change takes this instead of asking again.
  const password_proof = deps.tokens.signPasswordProof({ userId: candidate.id, family, passwordDigest: passwordDigest(candidate.passwordHash!) });
  return { answer: { ...pair, must_change_password: true, password_proof }, device };
}

/** Names one password hash without revealing it: a proof made for it is void once the password changes. */
function passwordDigest(passwordHash: string): string {
  return createHash('sha256').update(passwordHash).digest('base64url').slice(0, 22);
}

/**
 * A user changes their own password: the current one proves it is them (a wrong one is a field
 * error, not a 401, so the web keeps the session). Every other login of theirs ends, and so does
 * their calendar feed (whoever knew the old password may have its URL); this one (`keepFamily`)
 * goes on, and a password an admin set no longer needs changing.
 *
 * Checking the current password is a guess like a sign-in's (a stolen access token must not buy
 * unlimited tries): it counts on the sign-in throttle's counters for this client and account, so
 * guesses here and at the login screen share one budget (429 past it), and a right one clears it.
 */
export async function changeOwnPassword(
  ctx: ServiceContext,
  keepFamily: string,
  input: ChangePasswordInput,
  guard: { throttle: LoginThrottle; clientKey: string; tokens: Tokens },
): Promise<void> {
  const { companyId, id: userId } = ctx.user;
  const accountKey = `${companyId}:${ctx.user.email.toLowerCase()}`;
  if (input.current_password) {
    await guard.throttle.countAttempt(guard.clientKey, accountKey);
    const currentHash = await findPasswordHash(ctx.db, companyId, userId);
    if (currentHash === undefined) throw new NotFoundError();
    if (!(await verifyPassword(currentHash, input.current_password))) throw fieldError('current_password', WRONG_CURRENT_PASSWORD);
    await guard.throttle.recordSuccess(guard.clientKey, accountKey);
  } else {
    // No guess is made here: the proof is signed, of this user and this login, and of the password
    // they have now; expired, of another login or an older password, the current one is asked for.
    const currentHash = await findPasswordHash(ctx.db, companyId, userId);
    if (currentHash === undefined) throw new NotFoundError();
    const proof = input.password_proof ? guard.tokens.verifyPasswordProof(input.password_proof) : undefined;
    if (!proof || proof.userId !== userId || proof.family !== keepFamily || proof.passwordDigest !== passwordDigest(currentHash)) {
      throw fieldError('current_password', PASSWORD_PROOF_EXPIRED);
    }
    if (await verifyPassword(currentHash, input.new_password)) throw fieldError('new_password', SAME_PASSWORD);
  }
  const passwordHash = await hashPassword(input.new_password);
  await ctx.db.transaction(async (tx) => {
    if (!(await replacePassword(tx, companyId, userId, { passwordHash, mustChange: false, keepFamily }))) throw new NotFoundError();
  });
  await settleChanges(ctx.db);
}

/** How long after a refresh token is spent a repeat of it answers the same successor instead of ending the login. */
export const REFRESH_GRACE_SECONDS = 30;

/**
 * Rotation: the presented token is spent and a new pair issued. Presented again within
 * REFRESH_GRACE_SECONDS while its successor is unspent, it answers that successor (the answer was
 * lost, or two tabs refreshed together); presented again later, it ends its whole family.
 */
export async function refresh(deps: AuthDeps, refreshToken: string): Promise<TokenPair> {
  const claims = deps.tokens.verifyRefresh(refreshToken);
  if (!claims) throw new UnauthorizedError(INVALID_REFRESH);
  const nextJti = randomUUID();
  // Spending and issuing commit together: a concurrent loser's family revocation then always sees the new token.
  const pair = await deps.db.transaction(async (tx) => {
    const spent = await spendRefreshToken(tx, claims.jti, nextJti);
    return spent && issueTokenPair(tx, deps.tokens, { userId: spent.userId, companyId: spent.companyId, family: spent.family }, nextJti);
  });
  if (pair) return pair;
  const successor = await findGraceSuccessor(deps.db, claims.jti, REFRESH_GRACE_SECONDS);
  if (successor) return signTokenPair(deps.tokens, successor, successor.jti);
  await revokeFamily(deps.db, claims.family);
  await settleChanges(deps.db);
  throw new UnauthorizedError(INVALID_REFRESH);
}

export async function revoke(deps: AuthDeps, refreshToken: string): Promise<void> {
  const claims = deps.tokens.verifyRefresh(refreshToken);
  if (!claims) return;
  await revokeFamily(deps.db, claims.family);
  // Signing out ends this login's access tokens on every instance before the answer goes out.
  await settleChanges(deps.db);
}

export async function issueTokenPair(
  db: DbOrTx,
  tokens: Tokens,
  identity: { userId: number; companyId: number; family: string },
  jti: string = randomUUID(),
): Promise<TokenPair> {
  await insertRefreshToken(db, {
    jti,
    family: identity.family,
    userId: identity.userId,
    expiresAt: new Date(Date.now() + REFRESH_TOKEN_SECONDS * 1000),
  });
  return signTokenPair(tokens, identity, jti);
}

/** The pair of a refresh token already stored: a fresh access token of its login, and the refresh token itself. */
function signTokenPair(tokens: Tokens, identity: { userId: number; companyId: number; family: string }, jti: string): TokenPair {
  return { access: tokens.signAccess(identity), refresh: tokens.signRefresh({ userId: identity.userId, jti, family: identity.family }) };
}

/** The caller as their profile shows them. */
export async function getProfile(ctx: ServiceContext): Promise<Profile> {
  const profile = await findProfile(ctx.db, ctx.user.companyId, ctx.user.id);
  if (!profile) throw new NotFoundError();
  return profile;
}

/**
 * The caller's own language, time zone, name and notification e-mails. The language is part of the identity each request
 * checks (its errors are written in it), so a change answers only once every instance has
 * forgotten the old one (decision record 017).
 */
export async function updateProfile(ctx: ServiceContext, input: UpdateProfile): Promise<Profile> {
  const fullName = input.full_name === undefined ? undefined : input.full_name || null;
  if (!(await updateOwnSettings(ctx.db, ctx.user.companyId, ctx.user.id, { language: input.language, timezone: input.timezone, emailNotifications: input.email_notifications, fullName }))) throw new NotFoundError();
  if (input.language !== undefined && input.language !== ctx.user.language) await settleChanges(ctx.db);
  return getProfile(ctx);
}
