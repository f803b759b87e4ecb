import { expect, it } from 'vitest';
import { PASSWORD_CHANGE_REQUIRED_CODE } from '@siteboard/shared';
import { describeEachDatabase } from '../../test/build-app';
import { createCompany, createUser, injectAs, loginAs, type TestUser } from '../../test/factories';
import { listenLocally, livePath, refusedWith } from '../../test/live-client';

const ADMIN_SET = 'set by the admin';
const OWN = 'my very own passphrase';

describeEachDatabase('a password an admin set must be changed first', (ctx) => {
  /** A member whose password the admin just set, signed in with it. */
  async function memberWithAdminSetPassword() {
    const company = await createCompany(ctx.app.db);
    const admin = await loginAs(ctx.app, company.admin);
    const created = await createUser(ctx.app.db, company.id, 'team_member');
    const reset = await injectAs(ctx.app, admin.access, { method: 'POST', url: `/api/users/${created.id}/password/`, payload: { password: ADMIN_SET } });
    expect(reset.statusCode).toBe(204);
    const member: TestUser = { ...created, password: ADMIN_SET };
    const session = await loginAs(ctx.app, member);
    return { member, session };
  }

  it('refuses every call but the profile, the new password, refresh and sign-out (403 with a stable code), and the WebSocket', async () => {
    const { member, session } = await memberWithAdminSetPassword();

    const profile = await injectAs(ctx.app, session.access, { method: 'GET', url: '/api/profile/' });
    expect(profile.statusCode).toBe(200);
    expect(profile.json().must_change_password).toBe(true);

    for (const call of [
      { method: 'GET', url: '/api/projects/' },
      { method: 'GET', url: '/api/tasks-due-today/?format=csv' },
      { method: 'POST', url: '/api/calendar-feed/', payload: {} },
      { method: 'PATCH', url: '/api/profile/', payload: { language: 'fr' } },
      { method: 'GET', url: '/api/notifications/' },
    ] as const) {
      const refused = await injectAs(ctx.app, session.access, call);
      expect(refused.statusCode, `${call.method} ${call.url}`).toBe(403);
      expect(refused.json()).toEqual({ detail: expect.stringContaining('Choose a new password first'), code: PASSWORD_CHANGE_REQUIRED_CODE });
    }
    // In the reader's language, with the same code; before the body is looked at.
    const german = await injectAs(ctx.app, session.access, { method: 'POST', url: '/api/projects/', headers: { 'accept-language': 'de' }, payload: { nonsense: true } });
    expect(german.statusCode).toBe(403);
    expect(german.json()).toEqual({ detail: expect.stringContaining('Wählen Sie zuerst ein neues Passwort'), code: PASSWORD_CHANGE_REQUIRED_CODE });

    const base = await listenLocally(ctx.app);
    expect(await refusedWith(base, livePath(member, session.access))).toBe(403);

    // A refreshed token is still held to it.
    const refreshed = await ctx.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh: session.refresh } });
    expect(refreshed.statusCode).toBe(200);
    const access = refreshed.json().access as string;
    expect((await injectAs(ctx.app, access, { method: 'GET', url: '/api/projects/' })).statusCode).toBe(403);

    const changed = await injectAs(ctx.app, access, { method: 'POST', url: '/api/profile/password/', payload: { current_password: ADMIN_SET, new_password: OWN } });
    expect(changed.statusCode, changed.body).toBe(204);

    // The same session goes on, and everything is open now.
    expect((await injectAs(ctx.app, access, { method: 'GET', url: '/api/projects/' })).statusCode).toBe(200);
    expect((await injectAs(ctx.app, access, { method: 'POST', url: '/api/calendar-feed/', payload: {} })).statusCode).toBe(201);
    const live = await refusedWith(base, livePath(member, access)).catch((error: Error) => error.message);
    expect(live).toBe('the upgrade was accepted');
  });

  it('signing out works while the password must still be changed', async () => {
    const { session } = await memberWithAdminSetPassword();
    const revoked = await ctx.app.inject({ method: 'POST', url: '/api/token/revoke/', payload: { refresh: session.refresh } });
    expect(revoked.statusCode).toBe(204);
    expect((await injectAs(ctx.app, session.access, { method: 'GET', url: '/api/profile/' })).statusCode).toBe(401);
  });
});

describeEachDatabase('a new user whose password the admin chose', (ctx) => {
  it('must change it at the first sign-in when the admin asks (the web form does), and not otherwise (the spec\'s calls)', async () => {
    const company = await createCompany(ctx.app.db);
    const admin = await loginAs(ctx.app, company.admin);
    for (const asked of [true, false, undefined]) {
      const email = `${asked}-${company.id}@example.test`;
      const created = await injectAs(ctx.app, admin.access, {
        method: 'POST',
        url: '/api/users/',
        payload: { email, password: ADMIN_SET, role: 'manager', ...(asked === undefined ? {} : { must_change_password: asked }) },
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().must_change_password).toBe(asked === true);
      const session = await ctx.app.inject({ method: 'POST', url: '/api/token/', payload: { email, password: ADMIN_SET, role: 'manager', company_id: company.id } });
      expect(session.json().must_change_password, String(asked)).toBe(asked === true);
      const projects = await injectAs(ctx.app, session.json().access, { method: 'GET', url: '/api/projects/' });
      expect(projects.statusCode, String(asked)).toBe(asked === true ? 403 : 200);
    }
  });
});
