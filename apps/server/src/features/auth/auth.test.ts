import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import type { TokenPair } from '@siteboard/shared';
import { rateLimits, refreshTokens } from '../../schema/auth';
import { users } from '../../schema/users';
import { deleteExpiredRateLimits } from './auth.queries';
import { REFRESH_GRACE_SECONDS } from './auth.service';
import { SIGN_IN_LIMITS, SIGNUP_LIMIT } from './auth.throttle';
import { settleChanges } from '../../platform';
import { buildTestApp, TEST_JWT_SECRET, describeEachDatabase, openAnotherConnection, type TestContext, type TestDatabase } from '../../test/build-app';
import { createCompany, createUser, freshClientAddress, injectAs, loginAs, memberAnswer, unique, type TestUser } from '../../test/factories';

const INVALID_CREDENTIALS = { detail: 'No active account found with the given credentials.' };
const INVALID_TOKEN = { detail: 'Token is invalid or expired.' };

function credentials(user: TestUser) {
  return { email: user.email, password: user.password, role: user.role, company_id: user.companyId };
}

function postToken(ctx: TestContext, payload: object, remoteAddress = freshClientAddress()) {
  return ctx.app.inject({ method: 'POST', url: '/api/token/', payload, remoteAddress });
}

function postRefresh(ctx: TestContext, refresh: string) {
  return ctx.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh } });
}

/** The refresh token's id: two answers carrying the same one hand out the same token. */
function jtiOf(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).jti;
}

/** Moves the spending of a refresh token back in time, as if that many seconds had passed since. */
async function spentSecondsAgo(ctx: TestContext, token: string, seconds: number) {
  await ctx.app.db.update(refreshTokens).set({ revokedAt: sql`now() - make_interval(secs => ${seconds})` }).where(eq(refreshTokens.jti, jtiOf(token)));
}

function getProfile(ctx: TestContext, access: string, url = '/api/profile/') {
  return injectAs(ctx.app, access, { method: 'GET', url });
}

/** An access token with chosen claims, as someone holding (or guessing) a signing key would make it. */
function forgeAccess(claims: { userId: number; companyId: number; secret?: string; expiresAt?: number }) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ typ: 'access', cid: claims.companyId, fam: randomUUID() })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(claims.userId))
    .setIssuer('siteboard')
    .setIssuedAt(Math.min(now, (claims.expiresAt ?? now) - 60))
    .setExpirationTime(claims.expiresAt ?? now + 600)
    .sign(new TextEncoder().encode(claims.secret ?? TEST_JWT_SECRET));
}

describeEachDatabase('auth API', (ctx) => {
  describe('POST /api/token/', () => {
    it('answers a token pair whose access token reads the profile', async () => {
      const company = await createCompany(ctx.app.db);
      const manager = await createUser(ctx.app.db, company.id, 'manager');
      const member = await createUser(ctx.app.db, company.id, 'team_member', { managerId: manager.id });

      const response = await postToken(ctx, { ...credentials(member), email: member.email.toUpperCase() });

      expect(response.statusCode).toBe(200);
      const pair: TokenPair = response.json();
      expect(pair).toEqual({ access: expect.any(String), refresh: expect.any(String), must_change_password: false });
      const profile = await getProfile(ctx, pair.access);
      expect(profile.statusCode).toBe(200);
      expect(profile.json()).toEqual({
        ...memberAnswer(member, 'TM-0003', company, manager),
        language: 'en',
        language_chosen: false,
        timezone: null,
        effective_timezone: 'UTC',
        email_notifications: 'daily',
      });
    });

    it('gives one identical 401 for a wrong password, role, company or e-mail', async () => {
      const company = await createCompany(ctx.app.db);
      const otherCompany = await createCompany(ctx.app.db);
      const manager = await createUser(ctx.app.db, company.id, 'manager');
      const attempts = [
        { ...credentials(manager), password: 'wrong password' },
        { ...credentials(manager), role: 'admin' },
        { ...credentials(manager), company_id: otherCompany.id },
        { ...credentials(manager), email: `${unique('nobody')}@example.test` },
      ];

      for (const attempt of attempts) {
        const response = await postToken(ctx, attempt);
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual(INVALID_CREDENTIALS);
      }
    });

    it('refuses a malformed e-mail with a field error', async () => {
      const company = await createCompany(ctx.app.db);

      const response = await postToken(ctx, { ...credentials(company.admin), email: 'not-an-email' });

      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({ email: ['Enter a valid email address.'] });
    });

    it('names every missing field', async () => {
      const response = await postToken(ctx, {});

      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json().errors).sort()).toEqual(['company_id', 'email', 'password', 'role']);
      expect(response.json().errors.password).toEqual(['Password is required.']);
    });

    it('refuses a client 429 with Retry-After after 5 failures on one account; the owner still signs in from elsewhere', async () => {
      const company = await createCompany(ctx.app.db);
      const stranger = freshClientAddress();
      const wrong = { ...credentials(company.admin), password: 'wrong password' };
      for (let attempt = 0; attempt < SIGN_IN_LIMITS.clientOnAccount; attempt++) expect((await postToken(ctx, wrong, stranger)).statusCode).toBe(401);

      const blocked = await postToken(ctx, credentials(company.admin), stranger);
      const owner = await postToken(ctx, credentials(company.admin));

      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(owner.statusCode).toBe(200);
    });

    it('refuses an account 429 from everywhere after 20 attempts from many addresses', async () => {
      const company = await createCompany(ctx.app.db);
      const wrong = { ...credentials(company.admin), password: 'wrong password' };
      for (let attempt = 0; attempt < SIGN_IN_LIMITS.account; attempt++) expect((await postToken(ctx, wrong)).statusCode).toBe(401);

      expect((await postToken(ctx, credentials(company.admin))).statusCode).toBe(429);
    });

    it('lets a crew behind one address sign in after one member locked themselves out; refuses the address past its own ceiling', async () => {
      const company = await createCompany(ctx.app.db);
      const router = freshClientAddress();
      const [clumsy, careful] = [await createUser(ctx.app.db, company.id, 'team_member'), await createUser(ctx.app.db, company.id, 'team_member')];
      for (let attempt = 0; attempt < SIGN_IN_LIMITS.clientOnAccount; attempt++) await postToken(ctx, { ...credentials(clumsy), password: 'typo' }, router);

      expect((await postToken(ctx, credentials(clumsy), router)).statusCode).toBe(429);
      expect((await postToken(ctx, credentials(careful), router)).statusCode).toBe(200);

      const guesses = Array.from({ length: SIGN_IN_LIMITS.client }, () => ({ ...credentials(company.admin), email: `${unique('guess')}@example.test` }));
      for (const guess of guesses) await postToken(ctx, guess, router);
      expect((await postToken(ctx, credentials(careful), router)).statusCode).toBe(429);
    });

    it('checks at most 5 of 40 concurrent guesses on one account from one address: each is counted before it is checked', async () => {
      const company = await createCompany(ctx.app.db);
      const address = freshClientAddress();
      const guesses = Array.from({ length: 40 }, (_, index) => ({ ...credentials(company.admin), password: index === 39 ? company.admin.password : `guess ${index}` }));

      const statuses = (await Promise.all(guesses.map((guess) => postToken(ctx, guess, address)))).map((response) => response.statusCode);

      expect(statuses.filter((status) => status !== 429).length).toBeLessThanOrEqual(SIGN_IN_LIMITS.clientOnAccount);
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(40 - SIGN_IN_LIMITS.clientOnAccount);
    });

    it('shares its counters between instances on one PostgreSQL database (embedded: one process, memory)', async ({ skip }) => {
      if (ctx.kind !== 'postgres') skip();
      const company = await createCompany(ctx.app.db);
      const secondConnection = await openAnotherConnection(ctx.database as TestDatabase);
      const other = await buildTestApp({ database: secondConnection, jwtSecret: TEST_JWT_SECRET });
      try {
        const address = freshClientAddress();
        const wrong = { ...credentials(company.admin), password: 'wrong password' };
        for (let attempt = 0; attempt < SIGN_IN_LIMITS.clientOnAccount; attempt++) {
          const app = attempt % 2 === 0 ? ctx.app : other;
          expect((await app.inject({ method: 'POST', url: '/api/token/', payload: wrong, remoteAddress: address })).statusCode).toBe(401);
        }
        for (const app of [ctx.app, other]) {
          expect((await app.inject({ method: 'POST', url: '/api/token/', payload: credentials(company.admin), remoteAddress: address })).statusCode).toBe(429);
        }
      } finally {
        await other.close();
        // Its pools and listening connection are the test's to close, before the database goes.
        await secondConnection.close();
      }
    });

    it('forgets an account’s failures after a successful sign-in', async () => {
      const company = await createCompany(ctx.app.db);
      const wrong = { ...credentials(company.admin), password: 'wrong password' };
      for (let attempt = 0; attempt < 4; attempt++) expect((await postToken(ctx, wrong)).statusCode).toBe(401);
      expect((await postToken(ctx, credentials(company.admin))).statusCode).toBe(200);

      // Without the reset this would be the account's fifth failure, and the next attempt a 429.
      expect((await postToken(ctx, wrong)).statusCode).toBe(401);
      expect((await postToken(ctx, credentials(company.admin))).statusCode).toBe(200);
    });

    it('works without the trailing slash', async () => {
      const company = await createCompany(ctx.app.db);

      const response = await ctx.app.inject({ method: 'POST', url: '/api/token', payload: credentials(company.admin), remoteAddress: freshClientAddress() });

      expect(response.statusCode).toBe(200);
      expect((await getProfile(ctx, response.json().access, '/api/profile')).statusCode).toBe(200);
    });
  });

  describe('refresh rotation', () => {
    it('exchanges a refresh token for a new working pair', async () => {
      const company = await createCompany(ctx.app.db);
      const first = await loginAs(ctx.app, company.admin);

      const response = await postRefresh(ctx, first.refresh);

      expect(response.statusCode).toBe(200);
      const second: TokenPair = response.json();
      expect(second.refresh).not.toBe(first.refresh);
      expect((await getProfile(ctx, second.access)).statusCode).toBe(200);
      expect((await postRefresh(ctx, second.refresh)).statusCode).toBe(200);
    });

    it('answers a repeat of a spent refresh token within the grace window with the same successor, and the login goes on', async () => {
      const company = await createCompany(ctx.app.db);
      const first = await loginAs(ctx.app, company.admin);
      const second: TokenPair = (await postRefresh(ctx, first.refresh)).json();

      // The answer was lost on the way: the phone retries with the token it still has.
      const retry = await postRefresh(ctx, first.refresh);

      expect(retry.statusCode).toBe(200);
      const again: TokenPair = retry.json();
      expect(jtiOf(again.refresh)).toBe(jtiOf(second.refresh));
      expect((await getProfile(ctx, again.access)).statusCode).toBe(200);
      expect((await getProfile(ctx, second.access)).statusCode).toBe(200);
      expect((await postRefresh(ctx, again.refresh)).statusCode).toBe(200);
    });

    it('ends the whole login when a spent refresh token is presented again after the grace window', async () => {
      const company = await createCompany(ctx.app.db);
      const first = await loginAs(ctx.app, company.admin);
      const second: TokenPair = (await postRefresh(ctx, first.refresh)).json();
      await spentSecondsAgo(ctx, first.refresh, REFRESH_GRACE_SECONDS + 1);

      const reuse = await postRefresh(ctx, first.refresh);

      expect(reuse.statusCode).toBe(401);
      expect(reuse.json()).toEqual(INVALID_TOKEN);
      expect((await postRefresh(ctx, second.refresh)).statusCode).toBe(401);
      expect((await getProfile(ctx, second.access)).statusCode).toBe(401);
      expect((await getProfile(ctx, first.access)).statusCode).toBe(401);
    });

    it('ends the whole login on a repeat within the window once the successor was spent too (no grace for a stale chain)', async () => {
      const company = await createCompany(ctx.app.db);
      const first = await loginAs(ctx.app, company.admin);
      const second: TokenPair = (await postRefresh(ctx, first.refresh)).json();
      const third: TokenPair = (await postRefresh(ctx, second.refresh)).json();

      expect((await postRefresh(ctx, first.refresh)).statusCode).toBe(401);
      expect((await getProfile(ctx, third.access)).statusCode).toBe(401);
    });

    it('gives concurrent refreshes of one token (two tabs) one successor between them: one new token, nobody logged out', async () => {
      const company = await createCompany(ctx.app.db);
      const pair = await loginAs(ctx.app, company.admin);

      const responses = await Promise.all(Array.from({ length: 5 }, () => postRefresh(ctx, pair.refresh)));

      expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 200]);
      const successors = new Set(responses.map((response) => jtiOf((response.json() as TokenPair).refresh)));
      expect(successors.size).toBe(1);
      const winner: TokenPair = responses[0]!.json();
      expect((await postRefresh(ctx, winner.refresh)).statusCode).toBe(200);
    });
  });

  describe('POST /api/token/revoke/', () => {
    it('ends that login only: its refresh and access tokens are refused, another login still works', async () => {
      const company = await createCompany(ctx.app.db);
      const ended = await loginAs(ctx.app, company.admin);
      const other = await loginAs(ctx.app, company.admin);

      const response = await ctx.app.inject({ method: 'POST', url: '/api/token/revoke/', payload: { refresh: ended.refresh } });

      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect((await postRefresh(ctx, ended.refresh)).statusCode).toBe(401);
      expect((await getProfile(ctx, ended.access)).statusCode).toBe(401);
      expect((await getProfile(ctx, other.access)).statusCode).toBe(200);
      expect((await postRefresh(ctx, other.refresh)).statusCode).toBe(200);
    });
  });

  describe('token checks', () => {
    it('refuses a refresh token as an access token, and an access token as a refresh token', async () => {
      const company = await createCompany(ctx.app.db);
      const pair = await loginAs(ctx.app, company.admin);

      const asAccess = await getProfile(ctx, pair.refresh);
      const asRefresh = await postRefresh(ctx, pair.access);

      expect(asAccess.statusCode).toBe(401);
      expect(asRefresh.statusCode).toBe(401);
      expect(asRefresh.json()).toEqual(INVALID_TOKEN);
      expect((await postRefresh(ctx, pair.refresh)).statusCode).toBe(200);
    });

    it('accepts a well-formed token signed with the server’s secret (the control for the refusals below)', async () => {
      const company = await createCompany(ctx.app.db);

      const response = await getProfile(ctx, await forgeAccess({ userId: company.admin.id, companyId: company.id }));

      expect(response.statusCode).toBe(200);
    });

    it('refuses a token signed with another secret', async () => {
      const company = await createCompany(ctx.app.db);
      const token = await forgeAccess({ userId: company.admin.id, companyId: company.id, secret: 'another-secret-that-is-long-enough-to-sign-with' });

      const response = await getProfile(ctx, token);

      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(INVALID_TOKEN);
    });

    it('refuses an unsigned alg:none token', async () => {
      const company = await createCompany(ctx.app.db);
      const token = new UnsecuredJWT({ typ: 'access', cid: company.id, fam: randomUUID() })
        .setSubject(String(company.admin.id))
        .setIssuer('siteboard')
        .setIssuedAt()
        .setExpirationTime('10m')
        .encode();

      expect((await getProfile(ctx, token)).statusCode).toBe(401);
    });

    it('refuses an expired token', async () => {
      const company = await createCompany(ctx.app.db);
      const token = await forgeAccess({ userId: company.admin.id, companyId: company.id, expiresAt: Math.floor(Date.now() / 1000) - 3600 });

      expect((await getProfile(ctx, token)).statusCode).toBe(401);
    });

    it.each([
      ['no Authorization header', undefined],
      ['a non-bearer scheme', 'Basic dXNlcjpwYXNz'],
      ['an empty bearer', 'Bearer '],
      ['a garbled token', 'Bearer not.a.jwt'],
    ])('refuses %s with 401', async (_case, authorization) => {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/profile/', headers: authorization ? { authorization } : {} });

      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ detail: expect.any(String) });
    });

    it('refuses a soft-deleted user at once, though their tokens have not expired', async () => {
      const company = await createCompany(ctx.app.db);
      const member = await createUser(ctx.app.db, company.id, 'team_member');
      const pair = await loginAs(ctx.app, member);
      expect((await getProfile(ctx, pair.access)).statusCode).toBe(200);

      await ctx.app.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, member.id));
      // Written by hand, past the app: it takes effect once the database's announcement has arrived.
      await settleChanges(ctx.app.db);

      expect((await getProfile(ctx, pair.access)).statusCode).toBe(401);
      expect((await postRefresh(ctx, pair.refresh)).statusCode).toBe(401);
      expect((await postToken(ctx, credentials(member))).json()).toEqual(INVALID_CREDENTIALS);
    });
  });

  describe('the identity each request checks', () => {
    it('is read from the database once, not on every request', async () => {
      const company = await createCompany(ctx.app.db);
      const pair = await loginAs(ctx.app, company.admin);
      expect((await getProfile(ctx, pair.access)).statusCode).toBe(200);

      ctx.queries.length = 0;
      expect((await getProfile(ctx, pair.access)).statusCode).toBe(200);

      expect(ctx.queries.filter((statement) => statement.includes('refresh_tokens'))).toEqual([]);
    });

    it('refuses a user deleted through the API on their very next request', async () => {
      const company = await createCompany(ctx.app.db);
      const member = await createUser(ctx.app.db, company.id, 'team_member');
      const admin = await loginAs(ctx.app, company.admin);
      const pair = await loginAs(ctx.app, member);
      expect((await getProfile(ctx, pair.access)).statusCode).toBe(200);

      expect((await injectAs(ctx.app, admin.access, { method: 'DELETE', url: `/api/users/${member.id}/` })).statusCode).toBe(204);

      expect((await getProfile(ctx, pair.access)).statusCode).toBe(401);
    });

    it('answers with the new role on the request after an admin changes it', async () => {
      const company = await createCompany(ctx.app.db);
      const manager = await createUser(ctx.app.db, company.id, 'manager');
      const member = await createUser(ctx.app.db, company.id, 'team_member', { managerId: manager.id });
      const admin = await loginAs(ctx.app, company.admin);
      const pair = await loginAs(ctx.app, member);
      expect((await injectAs(ctx.app, pair.access, { method: 'GET', url: '/api/team-members/' })).statusCode).toBe(403);

      const edit = await injectAs(ctx.app, admin.access, { method: 'PATCH', url: `/api/users/${member.id}/`, payload: { role: 'manager', manager_id: null } });
      expect(edit.statusCode).toBe(200);

      expect((await injectAs(ctx.app, pair.access, { method: 'GET', url: '/api/team-members/' })).statusCode).toBe(200);
    });
  });

  describe('tenant isolation', () => {
    it('refuses an access token whose company is not the user’s company', async () => {
      const companyA = await createCompany(ctx.app.db);
      const companyB = await createCompany(ctx.app.db);
      const userOfB = await createUser(ctx.app.db, companyB.id, 'manager');

      const response = await getProfile(ctx, await forgeAccess({ userId: userOfB.id, companyId: companyA.id }));

      expect(response.statusCode).toBe(401);
    });

    it('refuses to sign in with one company’s id and another company’s user', async () => {
      const companyA = await createCompany(ctx.app.db);
      const companyB = await createCompany(ctx.app.db);
      const userOfB = await createUser(ctx.app.db, companyB.id, 'manager');

      const response = await postToken(ctx, { ...credentials(userOfB), company_id: companyA.id });

      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(INVALID_CREDENTIALS);
    });
  });
});

describeEachDatabase(
  'sign-in behind a trusted proxy',
  (ctx) => {
    it("counts by the address the nearest proxy saw, whatever the client wrote further left in X-Forwarded-For", async () => {
      const company = await createCompany(ctx.app.db);
      const wrong = { ...credentials(company.admin), password: 'wrong password' };
      const viaProxy = (payload: object, spoofed: string) =>
        ctx.app.inject({ method: 'POST', url: '/api/token/', payload, remoteAddress: '10.200.0.1', headers: { 'x-forwarded-for': `${spoofed}, 203.0.113.7` } });
      for (let attempt = 0; attempt < SIGN_IN_LIMITS.clientOnAccount; attempt++) expect((await viaProxy(wrong, `198.51.100.${attempt}`)).statusCode).toBe(401);

      expect((await viaProxy(credentials(company.admin), '198.51.100.99')).statusCode).toBe(429);
      const elsewhere = await ctx.app.inject({ method: 'POST', url: '/api/token/', payload: credentials(company.admin), remoteAddress: '10.200.0.1', headers: { 'x-forwarded-for': '203.0.113.8' } });
      expect(elsewhere.statusCode).toBe(200);
    });
  },
  { trustProxy: 1 },
);

describeEachDatabase('sign-up throttle', (ctx) => {
  it('refuses an address its sixth sign-up in ten minutes with 429; another address still signs up', async () => {
    const address = freshClientAddress();
    const signupFrom = (remoteAddress: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/signup/',
        remoteAddress,
        payload: { company_name: unique('Spam Co'), company_password: 'long enough', email: `${unique('spam')}@example.test`, password: 'long enough' },
      });
    for (let attempt = 0; attempt < SIGNUP_LIMIT.points; attempt++) expect((await signupFrom(address)).statusCode).toBe(201);

    const refused = await signupFrom(address);

    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signupFrom(freshClientAddress())).statusCode).toBe(201);
  });
});

describeEachDatabase('throttle counters in the database', (ctx) => {
  it('sweeps counters whose window ended over an hour ago and keeps the rest', async () => {
    const now = Date.now();
    const keys = { old: unique('sign-in:account:old'), recent: unique('sign-in:account:recent'), live: unique('sign-in:account:live') };
    await ctx.app.db.insert(rateLimits).values([
      { key: keys.old, points: 5, expire: new Date(now - 2 * 60 * 60 * 1000) },
      { key: keys.recent, points: 5, expire: new Date(now - 10 * 60 * 1000) },
      { key: keys.live, points: 1, expire: new Date(now + 10 * 60 * 1000) },
    ]);

    expect(await deleteExpiredRateLimits(ctx.app.db, new Date(now - 60 * 60 * 1000))).toBeGreaterThanOrEqual(1);

    const left = await ctx.app.db.select({ key: rateLimits.key }).from(rateLimits).where(inArray(rateLimits.key, Object.values(keys)));
    expect(left.map((row) => row.key).sort()).toEqual([keys.live, keys.recent].sort());
  });
});

