import { expect, it } from 'vitest';
import { describeEachDatabase, type TestContext } from '../../test/build-app';
import { createUser, DEFAULT_PASSWORD, loginAs } from '../../test/factories';
import { callAs, createTeam, type Caller } from '../../test/work-factories';

const FEED = '/api/calendar-feed/';

async function turnOn(ctx: TestContext, caller: Caller) {
  const response = await callAs(ctx.app, caller, { method: 'POST', url: FEED, payload: {} });
  expect(response.statusCode, response.body).toBe(201);
  return new URL((response.json() as { url: string }).url).pathname;
}

const feedStatus = async (ctx: TestContext, path: string) => (await ctx.app.inject({ method: 'GET', url: path })).statusCode;

describeEachDatabase('a calendar feed ends with the credentials it was made under', (ctx) => {
  it('ends when its owner changes their password; a new one can be made', async () => {
    const team = await createTeam(ctx.app);
    const feed = await turnOn(ctx, team.member);
    expect(await feedStatus(ctx, feed)).toBe(200);

    const changed = await callAs(ctx.app, team.member, { method: 'POST', url: '/api/profile/password/', payload: { current_password: DEFAULT_PASSWORD, new_password: 'a passphrase of my own' } });
    expect(changed.statusCode, changed.body).toBe(204);

    expect(await feedStatus(ctx, feed)).toBe(404);
    expect((await callAs(ctx.app, team.member, { method: 'GET', url: FEED })).json()).toMatchObject({ url: null });
    const renewed = await turnOn(ctx, team.member);
    expect(renewed).not.toBe(feed);
    expect(await feedStatus(ctx, renewed)).toBe(200);
  });

  it('ends when an admin sets the owner\'s password', async () => {
    const team = await createTeam(ctx.app);
    const feed = await turnOn(ctx, team.member);
    const untouched = await turnOn(ctx, team.otherMember);

    const reset = await callAs(ctx.app, team.admin, { method: 'POST', url: `/api/users/${team.member.id}/password/`, payload: { password: 'set by the admin' } });
    expect(reset.statusCode).toBe(204);

    expect(await feedStatus(ctx, feed)).toBe(404);
    expect(await feedStatus(ctx, untouched)).toBe(200);
  });

  it('ends when its owner is demoted, and not on an edit that keeps their role', async () => {
    const team = await createTeam(ctx.app);
    const created = await createUser(ctx.app.db, team.company.id, 'manager');
    const manager: Caller = { ...created, access: (await loginAs(ctx.app, created)).access };
    const feed = await turnOn(ctx, manager);
    const edit = (payload: object) => callAs(ctx.app, team.admin, { method: 'PATCH', url: `/api/users/${manager.id}/`, payload });

    expect((await edit({ full_name: 'Still a manager' })).statusCode).toBe(200);
    expect(await feedStatus(ctx, feed)).toBe(200);

    const demoted = await edit({ role: 'team_member', manager_id: team.manager.id });
    expect(demoted.statusCode, demoted.body).toBe(200);
    expect(await feedStatus(ctx, feed)).toBe(404);
    expect(await feedStatus(ctx, await turnOn(ctx, manager))).toBe(200);
  });
});
