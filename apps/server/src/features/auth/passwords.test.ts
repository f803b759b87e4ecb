import { expect, it } from 'vitest';
import type { User } from '@siteboard/shared';
import { describeEachDatabase, type TestContext } from '../../test/build-app';
import { hashPassword } from '../../lib/passwords';
import { whileUncommitted } from '../../test/uncommitted';
import { replacePassword } from '../users/users.queries';
import { SIGN_IN_LIMITS } from './auth.throttle';
import { DEFAULT_PASSWORD, createCompany, createUser, freshClientAddress, injectAs, loginAs, type TestUser } from '../../test/factories';

const NEW_PASSWORD = 'a brand new passphrase';

const signIn = (ctx: TestContext, user: TestUser, password = user.password) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/token/',
    remoteAddress: freshClientAddress(),
    payload: { email: user.email, password, role: user.role, company_id: user.companyId },
  });

const refresh = (ctx: TestContext, token: string) => ctx.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh: token } });
const profileStatus = async (ctx: TestContext, access: string) => (await injectAs(ctx.app, access, { method: 'GET', url: '/api/profile/' })).statusCode;
const changeOwn = (ctx: TestContext, access: string, payload: object, remoteAddress?: string) =>
  injectAs(ctx.app, access, { method: 'POST', url: '/api/profile/password/', payload, remoteAddress });

describeEachDatabase('passwords', (ctx) => {
  it('POST /api/profile/password/ changes your own password; your other sessions end, this one goes on', async () => {
    const company = await createCompany(ctx.app.db);
    const member = await createUser(ctx.app.db, company.id, 'team_member');
    const here = await loginAs(ctx.app, member);
    const elsewhere = await loginAs(ctx.app, member);

    const response = await changeOwn(ctx, here.access, { current_password: DEFAULT_PASSWORD, new_password: NEW_PASSWORD });

    expect(response.statusCode, response.body).toBe(204);
    expect(response.body).toBe('');
    expect(await profileStatus(ctx, here.access)).toBe(200);
    expect((await refresh(ctx, here.refresh)).statusCode).toBe(200);
    expect(await profileStatus(ctx, elsewhere.access)).toBe(401);
    expect((await refresh(ctx, elsewhere.refresh)).statusCode).toBe(401);
    expect((await signIn(ctx, member)).statusCode).toBe(401);
    const signedIn = await signIn(ctx, member, NEW_PASSWORD);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().must_change_password).toBe(false);
  });

  it('refuses a wrong current password as a field error (400), keeps the session and the old password', async () => {
    const company = await createCompany(ctx.app.db);
    const manager = await createUser(ctx.app.db, company.id, 'manager');
    const session = await loginAs(ctx.app, manager);

    const wrong = await changeOwn(ctx, session.access, { current_password: 'not my password', new_password: NEW_PASSWORD });
    const short = await changeOwn(ctx, session.access, { current_password: DEFAULT_PASSWORD, new_password: 'short' });
    const missing = await changeOwn(ctx, session.access, {});

    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ detail: 'Your current password is not correct.', errors: { current_password: ['Your current password is not correct.'] } });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors).toEqual({ new_password: ['Password must be at least 8 characters.'] });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().errors).sort()).toEqual(['current_password', 'new_password']);
    expect(await profileStatus(ctx, session.access)).toBe(200);
    expect((await signIn(ctx, manager)).statusCode).toBe(200);
  });

  it('throttles guesses at the current password as sign-ins are: 429 past the limit, on both screens; the owner goes on elsewhere', async () => {
    const company = await createCompany(ctx.app.db);
    const member = await createUser(ctx.app.db, company.id, 'team_member');
    const stolen = await loginAs(ctx.app, member);
    const thief = freshClientAddress();
    for (let guess = 0; guess < SIGN_IN_LIMITS.clientOnAccount; guess++) {
      expect((await changeOwn(ctx, stolen.access, { current_password: `guess ${guess}`, new_password: NEW_PASSWORD }, thief)).statusCode).toBe(400);
    }

    // Even the right password is refused now, from that client, here and at sign-in.
    const blocked = await changeOwn(ctx, stolen.access, { current_password: DEFAULT_PASSWORD, new_password: NEW_PASSWORD }, thief);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json().detail).toEqual(expect.any(String));
    expect((await ctx.app.inject({ method: 'POST', url: '/api/token/', remoteAddress: thief, payload: { email: member.email, password: DEFAULT_PASSWORD, role: member.role, company_id: member.companyId } })).statusCode).toBe(429);

    // The owner, from their own client, still changes it.
    const owner = await loginAs(ctx.app, member);
    expect((await changeOwn(ctx, owner.access, { current_password: DEFAULT_PASSWORD, new_password: NEW_PASSWORD }, freshClientAddress())).statusCode).toBe(204);
  });

  it('refuses a caller without a token', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/api/profile/password/', payload: { current_password: DEFAULT_PASSWORD, new_password: NEW_PASSWORD } });
    expect(response.statusCode).toBe(401);
  });

  it("POST /api/users/{id}/password/ ends the user's sessions; they must change the password until they do", async () => {
    const company = await createCompany(ctx.app.db);
    const admin = await loginAs(ctx.app, company.admin);
    const member = await createUser(ctx.app.db, company.id, 'team_member');
    const before = await loginAs(ctx.app, member);

    const reset = await injectAs(ctx.app, admin.access, { method: 'POST', url: `/api/users/${member.id}/password/`, payload: { password: 'set by the admin' } });

    expect(reset.statusCode, reset.body).toBe(204);
    expect(await profileStatus(ctx, before.access)).toBe(401);
    expect((await refresh(ctx, before.refresh)).statusCode).toBe(401);
    expect((await signIn(ctx, member)).statusCode).toBe(401);
    const signedIn = await signIn(ctx, member, 'set by the admin');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toEqual({ access: expect.any(String), refresh: expect.any(String), must_change_password: true, password_proof: expect.any(String) });
    const { access } = signedIn.json();
    const profile = (await injectAs(ctx.app, access, { method: 'GET', url: '/api/profile/' })).json() as User;
    expect(profile.must_change_password).toBe(true);
    const listed = (await injectAs(ctx.app, admin.access, { method: 'GET', url: '/api/users/' })).json() as User[];
    expect(listed.find((user) => user.id === member.id)?.must_change_password).toBe(true);

    expect((await changeOwn(ctx, access, { current_password: 'set by the admin', new_password: NEW_PASSWORD })).statusCode).toBe(204);
    expect(((await injectAs(ctx.app, access, { method: 'GET', url: '/api/profile/' })).json() as User).must_change_password).toBe(false);
    expect((await signIn(ctx, member, NEW_PASSWORD)).json().must_change_password).toBe(false);
  });

  it("at the forced change, the sign-in's proof stands in for the password just typed: this login, this password, once", async () => {
    const company = await createCompany(ctx.app.db);
    const admin = await loginAs(ctx.app, company.admin);
    const member = await createUser(ctx.app.db, company.id, 'team_member');
    await injectAs(ctx.app, admin.access, { method: 'POST', url: `/api/users/${member.id}/password/`, payload: { password: 'set by the admin' } });
    const first = (await signIn(ctx, member, 'set by the admin')).json() as { access: string; password_proof: string };
    const second = (await signIn(ctx, member, 'set by the admin')).json() as { access: string; password_proof: string };
    expect((await signIn(ctx, company.admin)).json()).not.toHaveProperty('password_proof');

    // Another login's proof, or none, or the same password again: refused as field errors, nothing changed.
    const foreign = await changeOwn(ctx, first.access, { password_proof: second.password_proof, new_password: NEW_PASSWORD });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors).toEqual({ current_password: ['Too long since you signed in: enter your current password.'] });
    expect((await changeOwn(ctx, first.access, { new_password: NEW_PASSWORD })).json().errors).toEqual({ current_password: ['Current password is required.'] });
    const same = await changeOwn(ctx, first.access, { password_proof: first.password_proof, new_password: 'set by the admin' });
    expect(same.json().errors).toEqual({ new_password: ['Choose a password different from your current one.'] });

    const changed = await changeOwn(ctx, first.access, { password_proof: first.password_proof, new_password: NEW_PASSWORD });
    expect(changed.statusCode, changed.body).toBe(204);
    expect(((await injectAs(ctx.app, first.access, { method: 'GET', url: '/api/profile/' })).json() as User).must_change_password).toBe(false);
    // The proof named the password it was made for: it changes nothing a second time.
    const again = await changeOwn(ctx, first.access, { password_proof: first.password_proof, new_password: 'yet another passphrase' });
    expect(again.statusCode).toBe(400);
    expect((await signIn(ctx, member, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('is for admins only (403), of their own company (404), not their own row (403), and checks the password (400)', async () => {
    const company = await createCompany(ctx.app.db);
    const other = await createCompany(ctx.app.db);
    const admin = await loginAs(ctx.app, company.admin);
    const manager = await createUser(ctx.app.db, company.id, 'manager');
    const member = await createUser(ctx.app.db, company.id, 'team_member');
    const foreign = await createUser(ctx.app.db, other.id, 'team_member');
    const asManager = await loginAs(ctx.app, manager);
    const reset = (access: string, id: number, payload: object = { password: 'set by the admin' }) => injectAs(ctx.app, access, { method: 'POST', url: `/api/users/${id}/password/`, payload });

    expect((await reset(asManager.access, member.id)).statusCode).toBe(403);
    expect((await reset(asManager.access, member.id, {})).statusCode).toBe(403);
    expect((await reset(admin.access, foreign.id)).statusCode).toBe(404);
    expect((await reset(admin.access, 999_999)).statusCode).toBe(404);
    expect((await reset(admin.access, company.admin.id)).statusCode).toBe(403);
    const short = await reset(admin.access, member.id, { password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors).toEqual({ password: ['Password must be at least 8 characters.'] });
    for (const user of [member, foreign]) expect((await signIn(ctx, user)).json().must_change_password).toBe(false);
  });

  it('documents both routes in the OpenAPI document', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();

    expect(Object.keys(document.paths['/api/profile/password/'])).toEqual(['post']);
    expect(Object.keys(document.paths['/api/users/{id}/password/'])).toEqual(['post']);
  });
});

describeEachDatabase('a sign-in racing a new password', (ctx) => {
  it('is refused when the password it checked is replaced before its login is stored', async ({ skip }) => {
    // The embedded database runs one transaction at a time: a sign-in cannot read between a change and its commit.
    if (ctx.kind !== 'postgres') skip();
    const company = await createCompany(ctx.app.db);
    const member = await createUser(ctx.app.db, company.id, 'team_member');
    // An admin's reset, written but not yet committed, while the old password is typed at the sign-in.
    const response = await whileUncommitted(
      ctx.app.db,
      async (tx) => replacePassword(tx, company.id, member.id, { passwordHash: await hashPassword(NEW_PASSWORD), mustChange: true }),
      () => signIn(ctx, member),
    );
    expect(response.statusCode, response.body).toBe(401);
    expect((await signIn(ctx, member, NEW_PASSWORD)).statusCode).toBe(200);
  });
});
