import { expect, it } from 'vitest';
import { describeEachDatabase, type TestContext } from '../../test/build-app';
import { DEFAULT_PASSWORD, createCompany, createUser, freshClientAddress, type TestUser } from '../../test/factories';
import { SIGN_IN_LIMITS } from './auth.throttle';

type Cookies = Record<string, string>;

const signIn = (ctx: TestContext, user: TestUser, password: string, remoteAddress: string, cookies: Cookies = {}) =>
  ctx.app.inject({ method: 'POST', url: '/api/token/', remoteAddress, cookies, payload: { email: user.email, password, role: user.role, company_id: user.companyId } });

const companyStep = (ctx: TestContext, name: string, password: string, remoteAddress: string, cookies: Cookies = {}) =>
  ctx.app.inject({ method: 'POST', url: '/api/verify-company-password/', remoteAddress, cookies, payload: { company_name: name, password } });

/** The device cookie an answer set, as the browser keeps it. */
function deviceCookie(response: { cookies: { name: string; value: string; httpOnly?: boolean; sameSite?: string; path?: string }[] }): Cookies {
  const cookie = response.cookies.find((candidate) => candidate.name.startsWith('siteboard_device_'));
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/' });
  return { [cookie!.name]: cookie!.value };
}

/** A stranger's storm from one address: 25 wrong guesses, refused with 401 (or 400) and then 429. */
async function storm(guess: (password: string) => Promise<{ statusCode: number }>) {
  const statuses: number[] = [];
  for (let attempt = 0; attempt < 25; attempt++) statuses.push((await guess(`wrong guess ${attempt}`)).statusCode);
  expect(statuses).toContain(429);
}

describeEachDatabase('device cookies against aimed lockouts', (ctx) => {
  it("the owner on a known device signs in through a stranger's storm; without the device cookie the limits hold", async () => {
    const company = await createCompany(ctx.app.db);
    const owner = await createUser(ctx.app.db, company.id, 'manager');
    const other = await createUser(ctx.app.db, company.id, 'manager');
    const home = await signIn(ctx, owner, DEFAULT_PASSWORD, freshClientAddress());
    expect(home.statusCode).toBe(200);
    const device = deviceCookie(home);
    const otherDevice = deviceCookie(await signIn(ctx, other, DEFAULT_PASSWORD, freshClientAddress()));

    const stranger = freshClientAddress();
    await storm((password) => signIn(ctx, owner, password, stranger));

    // Without it (or with another account's, or a forged one) the account's limit holds.
    expect((await signIn(ctx, owner, DEFAULT_PASSWORD, freshClientAddress())).statusCode).toBe(429);
    expect((await signIn(ctx, owner, DEFAULT_PASSWORD, freshClientAddress(), otherDevice)).statusCode).toBe(429);
    const [name, value] = Object.entries(device)[0]!;
    expect((await signIn(ctx, owner, DEFAULT_PASSWORD, freshClientAddress(), { [name]: `${value.split('.')[0]}.forged` })).statusCode).toBe(429);
    // The owner on their known device gets in, from wherever they are now.
    expect((await signIn(ctx, owner, DEFAULT_PASSWORD, freshClientAddress(), device)).statusCode).toBe(200);
  });

  it('a known device is throttled by its own failures', async () => {
    const company = await createCompany(ctx.app.db);
    const owner = await createUser(ctx.app.db, company.id, 'team_member');
    const device = deviceCookie(await signIn(ctx, owner, DEFAULT_PASSWORD, freshClientAddress()));
    for (let attempt = 0; attempt < SIGN_IN_LIMITS.knownDevice; attempt++) {
      expect((await signIn(ctx, owner, `typo ${attempt}`, freshClientAddress(), device)).statusCode).toBe(401);
    }
    expect((await signIn(ctx, owner, DEFAULT_PASSWORD, freshClientAddress(), device)).statusCode).toBe(429);
  });

  it("the company step likewise: a known device passes through a stranger's storm, others wait", async () => {
    const company = await createCompany(ctx.app.db);
    const first = await companyStep(ctx, company.name, company.password, freshClientAddress());
    expect(first.statusCode).toBe(200);
    const device = deviceCookie(first);

    const stranger = freshClientAddress();
    await storm((password) => companyStep(ctx, company.name, password, stranger));

    expect((await companyStep(ctx, company.name, company.password, freshClientAddress())).statusCode).toBe(429);
    expect((await companyStep(ctx, company.name, company.password, freshClientAddress(), device)).statusCode).toBe(200);
  });
});
