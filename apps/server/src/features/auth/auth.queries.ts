import { and, eq, gt, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Language } from '@siteboard/shared';
import { type DbOrTx, builtOncePerDatabase } from '../../platform';
import { rateLimits, refreshTokens } from '../../schema/auth';
import { users } from '../../schema/users';

export async function insertRefreshToken(db: DbOrTx, values: { jti: string; family: string; userId: number; expiresAt: Date }) {
  await db.insert(refreshTokens).values(values);
}

/**
 * Spends a refresh token in one conditional UPDATE: of concurrent attempts exactly one matches
 * the `revoked_at is null` row, so exactly one wins. Answers the owner's identity, or undefined.
 */
export async function spendRefreshToken(db: DbOrTx, jti: string, replacedBy: string) {
  const [row] = await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()`, replacedBy })
    .from(users)
    .where(
      and(
        eq(refreshTokens.jti, jti),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, sql`now()`),
        eq(users.id, refreshTokens.userId),
        isNull(users.deletedAt),
      ),
    )
    .returning({ userId: users.id, companyId: users.companyId, family: refreshTokens.family });
  return row;
}

const successors = alias(refreshTokens, 'successors');

/**
 * A refresh token spent less than `graceSeconds` ago whose successor is still unspent: that
 * successor and its owner's identity, or undefined. A client that lost the answer to its refresh
 * (or a second tab refreshing at the same moment) gets the same successor instead of a reuse.
 */
export async function findGraceSuccessor(db: DbOrTx, jti: string, graceSeconds: number) {
  const [row] = await db
    .select({ jti: successors.jti, family: successors.family, userId: users.id, companyId: users.companyId })
    .from(refreshTokens)
    .innerJoin(successors, eq(successors.jti, refreshTokens.replacedBy))
    .innerJoin(users, eq(users.id, successors.userId))
    .where(
      and(
        eq(refreshTokens.jti, jti),
        gt(refreshTokens.revokedAt, sql`now() - make_interval(secs => ${graceSeconds})`),
        isNull(successors.revokedAt),
        gt(successors.expiresAt, sql`now()`),
        isNull(users.deletedAt),
      ),
    );
  return row;
}

/** Ends a whole login: every token of the family, and (through findActiveIdentity) its access tokens. */
export async function revokeFamily(db: DbOrTx, family: string) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.family, family), isNull(refreshTokens.revokedAt)));
}

/** A family is revoked when its newest token was revoked without being replaced. */
const loginIsLive = (family: SQL) =>
  sql`not exists (select 1 from ${refreshTokens} where ${refreshTokens.family} = ${family} and ${refreshTokens.revokedAt} is not null and ${refreshTokens.replacedBy} is null)`;

/** The statement behind findActiveIdentity. */
const activeIdentityStatement = builtOncePerDatabase((db) =>
  db
    .select({
      id: users.id,
      companyId: users.companyId,
      role: users.role,
      email: users.email,
      language: sql<Language>`${users.language}`,
      mustChangePassword: users.mustChangePassword,
    })
    .from(users)
    .where(
      and(
        eq(users.id, sql.placeholder('userId')),
        eq(users.companyId, sql.placeholder('companyId')),
        isNull(users.deletedAt),
        loginIsLive(sql`${sql.placeholder('family')}`),
      ),
    )
    .prepare('find_active_identity'),
);

/**
 * What each authenticated request needs, read fresh so that a deleted user, a changed role or a
 * revoked login takes effect at once. Every request runs it, so it is built once and prepared.
 */
export async function findActiveIdentity(db: DbOrTx, claims: { userId: number; companyId: number; family: string }) {
  const [row] = await activeIdentityStatement(db).execute(claims);
  return row;
}

/**
 * findActiveIdentity for many logins in one statement (long-lived connections re-check theirs
 * periodically): answers the `userId:family` keys still active.
 */
export async function findActiveLogins(db: DbOrTx, logins: { userId: number; companyId: number; family: string }[]): Promise<Set<string>> {
  if (logins.length === 0) return new Set();
  const json = JSON.stringify(logins.map((login) => ({ user_id: login.userId, company_id: login.companyId, family: login.family })));
  const result = await db.execute(sql`
    select wanted.user_id, wanted.family::text as family
    from json_to_recordset(${json}::json) as wanted(user_id int, company_id int, family uuid)
    join ${users} on ${users.id} = wanted.user_id and ${users.companyId} = wanted.company_id and ${users.deletedAt} is null
    where ${loginIsLive(sql`wanted.family`)}
  `);
  return new Set((result as unknown as { rows: { user_id: number; family: string }[] }).rows.map((row) => `${row.user_id}:${row.family}`));
}

/** Throttle counters whose window ended before `before` (they count nothing any more); how many went. */
export async function deleteExpiredRateLimits(db: DbOrTx, before: Date): Promise<number> {
  const rows = await db.delete(rateLimits).where(lt(rateLimits.expire, before)).returning({ key: rateLimits.key });
  return rows.length;
}
