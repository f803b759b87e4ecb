import { beforeAll, expect, it } from 'vitest';
import type { App } from '../../app';
import { describeTwoInstances } from '../../test/build-app';
import { settleChanges } from '../../platform';
import { createCompany, createUser, injectAs, loginAs, type TestCompany } from '../../test/factories';

/**
 * Two app instances on one PostgreSQL database, each keeping the identities it has checked in
 * memory: a change made through one is refused by the other as soon as the database's
 * announcement reaches it, the moment a live notification would (decision record 017). Each
 * PostgreSQL backend forwards announcements when it next runs, so "reached B" is a condition the
 * test waits on (B's own round trip through its listener), never a delay.
 */
describeTwoInstances('identity checks across instances', (instances) => {
  let appA: App;
  let appB: App;
  let company: TestCompany;

  beforeAll(async () => {
    ({ appA, appB } = instances);
    company = await createCompany(appA.db);
  });

  const profileOn = (app: App, access: string) => injectAs(app, access, { method: 'GET', url: '/api/profile/' });

  it('refuses on instance B a user deleted through instance A, once B has heard of it', async () => {
    const member = await createUser(appA.db, company.id, 'team_member');
    const admin = await loginAs(appA, company.admin);
    const pair = await loginAs(appA, member);
    expect((await profileOn(appB, pair.access)).statusCode).toBe(200);

    expect((await injectAs(appA, admin.access, { method: 'DELETE', url: `/api/users/${member.id}/` })).statusCode).toBe(204);
    await settleChanges(appB.db);

    expect((await profileOn(appB, pair.access)).statusCode).toBe(401);
  });

  it('refuses on instance B the access token of a login signed out through instance A', async () => {
    const pair = await loginAs(appA, company.admin);
    const other = await loginAs(appA, company.admin);
    expect((await profileOn(appB, pair.access)).statusCode).toBe(200);
    expect((await profileOn(appB, other.access)).statusCode).toBe(200);

    expect((await appA.inject({ method: 'POST', url: '/api/token/revoke/', payload: { refresh: pair.refresh } })).statusCode).toBe(204);
    await settleChanges(appB.db);

    expect((await profileOn(appB, pair.access)).statusCode).toBe(401);
    expect((await profileOn(appB, other.access)).statusCode).toBe(200);
  });

  it('checks every request against the database while its listening connection is down', async () => {
    const member = await createUser(appA.db, company.id, 'team_member');
    const admin = await loginAs(appA, company.admin);
    const pair = await loginAs(appA, member);
    expect((await profileOn(appB, pair.access)).statusCode).toBe(200);
    await appA.db.execute(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'siteboard-listener' and datname = current_database()`);

    expect((await injectAs(appA, admin.access, { method: 'DELETE', url: `/api/users/${member.id}/` })).statusCode).toBe(204);

    expect((await profileOn(appB, pair.access)).statusCode).toBe(401);
  });

});
