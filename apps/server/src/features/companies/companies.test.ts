import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { companies } from '../../schema/companies';
import { users } from '../../schema/users';
import { buildTestApp, TEST_JWT_SECRET, describeEachDatabase, type TestContext } from '../../test/build-app';
import { SIGN_IN_LIMITS } from '../auth/auth.throttle';
import { DEFAULT_PASSWORD, createCompany, freshClientAddress, injectAs, loginAs, unique } from '../../test/factories';
import { whileRefusingInserts } from '../../test/refuse-inserts';

const INVALID = { success: false, error: 'Invalid company name or password.' };

function verify(ctx: TestContext, payload: object, remoteAddress = freshClientAddress()) {
  return ctx.app.inject({ method: 'POST', url: '/api/verify-company-password/', payload, remoteAddress });
}

function signupPayload(overrides: Record<string, unknown> = {}) {
  return { company_name: unique('Signup Co'), company_password: 'company secret', email: `${unique('owner')}@example.test`, password: DEFAULT_PASSWORD, ...overrides };
}

function postSignup(ctx: TestContext, payload: object) {
  return ctx.app.inject({ method: 'POST', url: '/api/signup/', payload });
}

async function companyRowsNamed(ctx: TestContext, name: string) {
  return ctx.app.db.select({ id: companies.id }).from(companies).where(eq(sql`lower(${companies.name})`, name.toLowerCase()));
}

describeEachDatabase('companies API', (ctx) => {
  describe('GET /api/companies/', () => {
    it('answers a signed-in user their own company only, in the list shape', async () => {
      const mine = await createCompany(ctx.app.db);
      await createCompany(ctx.app.db);
      const { access } = await loginAs(ctx.app, mine.admin);

      const response = await injectAs(ctx.app, access, { method: 'GET', url: '/api/companies/' });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([{ id: mine.id, company_id: mine.id, name: mine.name }]);
      expect(response.headers['x-total-count']).toBe('1');
    });

    it("refuses an anonymous caller with 401, naming no company", async () => {
      const company = await createCompany(ctx.app.db);

      const response = await ctx.app.inject({ method: 'GET', url: '/api/companies/' });

      expect(response.statusCode).toBe(401);
      expect(response.body).not.toContain(company.name);
    });
  });

  describe('GET /api/companies/{id}/', () => {
    it("answers anyone an existing company's id, never its name", async () => {
      const company = await createCompany(ctx.app.db);

      const response = await ctx.app.inject({ method: 'GET', url: `/api/companies/${company.id}/` });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ company_id: company.id });
      expect(response.body).not.toContain(company.name);
    });

    it("says an unknown company is not found, in the reader's language", async () => {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/companies/2147483000/' });
      expect(response.statusCode).toBe(404);
      expect(response.json().detail).toBe('Company not found.');

      const german = await ctx.app.inject({ method: 'GET', url: '/api/companies/2147483000/', headers: { 'accept-language': 'de' } });
      expect(german.statusCode).toBe(404);
      expect(german.json().detail).not.toBe('Company not found.');
    });

    it('refuses an id that is not a whole number with 400', async () => {
      for (const id of ['abc', '0', '-3', '1.5', '2147483648']) {
        const response = await ctx.app.inject({ method: 'GET', url: `/api/companies/${id}/` });
        expect(response.statusCode, id).toBe(400);
        expect(typeof response.json().detail, id).toBe('string');
      }
    });
  });

  describe('POST /api/verify-company-password/', () => {
    it('answers success and the company id, whatever the case of the name', async () => {
      const company = await createCompany(ctx.app.db);

      const response = await verify(ctx, { company_name: `  ${company.name.toUpperCase()} `, password: company.password });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ success: true, company_id: company.id, company_name: company.name });
    });

    it('gives the same answer for a wrong password and an unknown company', async () => {
      const company = await createCompany(ctx.app.db);

      const wrongPassword = await verify(ctx, { company_name: company.name, password: 'not the password' });
      const unknownCompany = await verify(ctx, { company_name: unique('No Such Company'), password: company.password });

      expect(wrongPassword.statusCode).toBe(400);
      expect(wrongPassword.json()).toEqual(INVALID);
      expect(unknownCompany.statusCode).toBe(400);
      expect(unknownCompany.json()).toEqual(INVALID);
    });

    it('names each missing field', async () => {
      const response = await verify(ctx, {});

      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({ company_name: ['Company name is required.'], password: ['Password is required.'] });
    });

    it("refuses a stranger's address 429 after 5 failures on one company; the crew still passes from its own address", async () => {
      const company = await createCompany(ctx.app.db);
      const stranger = freshClientAddress();
      for (let attempt = 0; attempt < SIGN_IN_LIMITS.clientOnAccount; attempt++) {
        expect((await verify(ctx, { company_name: company.name, password: 'wrong' }, stranger)).statusCode).toBe(400);
      }

      const blocked = await verify(ctx, { company_name: company.name.toLowerCase(), password: company.password }, stranger);
      const crew = await verify(ctx, { company_name: company.name, password: company.password });

      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(blocked.json().detail).toMatch(/Too many failed attempts/);
      expect(crew.statusCode).toBe(200);
    });

    it('checks at most 5 of 40 concurrent guesses of a company password from one address', async () => {
      const company = await createCompany(ctx.app.db);
      const address = freshClientAddress();

      const responses = await Promise.all(Array.from({ length: 40 }, (_, index) => verify(ctx, { company_name: company.name, password: index === 39 ? company.password : `guess ${index}` }, address)));

      const checked = responses.filter((response) => response.statusCode !== 429);
      expect(checked.length).toBeLessThanOrEqual(SIGN_IN_LIMITS.clientOnAccount);
    });
  });

  describe('POST /api/signup/', () => {
    it('creates the company and its first admin', async () => {
      const payload = signupPayload({ timezone: 'Europe/Paris' });

      const response = await postSignup(ctx, payload);

      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body).toEqual({
        company_id: expect.any(Number),
        user: {
          id: expect.any(Number),
          email: payload.email,
          role: 'admin',
          code: 'ADM-0001',
          designation: null,
          mobile_number: null,
          company: { id: body.company_id, name: payload.company_name },
          company_id: body.company_id,
          manager_id: null,
          manager_data: null,
          full_name: null,
          must_change_password: false,
        },
      });
      const [company] = await ctx.app.db.select({ timezone: companies.timezone }).from(companies).where(eq(companies.id, body.company_id));
      expect(company).toEqual({ timezone: 'Europe/Paris' });
      const verified = await verify(ctx, { company_name: payload.company_name, password: payload.company_password });
      expect(verified.json()).toEqual({ success: true, company_id: body.company_id, company_name: expect.any(String) });
    });

    it('stores the company zone by its canonical name when given an older one', async () => {
      const response = await postSignup(ctx, signupPayload({ timezone: 'Asia/Saigon' }));

      expect(response.statusCode).toBe(201);
      const [company] = await ctx.app.db.select({ timezone: companies.timezone }).from(companies).where(eq(companies.id, response.json().company_id));
      expect(company).toEqual({ timezone: 'Asia/Ho_Chi_Minh' });
    });

    it('refuses a name already taken, whatever its case, and writes nothing', async () => {
      const existing = await createCompany(ctx.app.db);
      const [{ count: usersBefore }] = await ctx.app.db.select({ count: sql<number>`count(*)::int` }).from(users);

      const response = await postSignup(ctx, signupPayload({ company_name: existing.name.toUpperCase() }));

      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ detail: 'A company with this name already exists.' });
      expect(await companyRowsNamed(ctx, existing.name)).toHaveLength(1);
      const [{ count: usersAfter }] = await ctx.app.db.select({ count: sql<number>`count(*)::int` }).from(users);
      expect(usersAfter).toBe(usersBefore);
    });

    it.each([
      ['a short password', { password: 'short' }, 'password', 'Password must be at least 8 characters.'],
      ['a short company password', { company_password: 'short' }, 'company_password', 'Password must be at least 8 characters.'],
      ['a malformed e-mail', { email: 'not-an-email' }, 'email', 'Enter a valid email address.'],
      ['an unknown time zone', { timezone: 'Mars/Olympus_Mons' }, 'timezone', 'Choose a valid time zone.'],
    ])('refuses %s with a field error and creates nothing', async (_case, overrides, field, message) => {
      const payload = signupPayload(overrides);

      const response = await postSignup(ctx, payload);

      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({ [field]: [message] });
      expect(await companyRowsNamed(ctx, payload.company_name)).toEqual([]);
    });

    it('leaves no company behind when creating its admin fails', async () => {
      const payload = signupPayload({ email: `${unique('explode')}@example.test` });
      // The admin's insert fails after the company row was written in the same transaction.
      await whileRefusingInserts(ctx.app.db, { table: 'users', column: 'email', value: payload.email }, async () => {
        const failed = await postSignup(ctx, payload);

        expect(failed.statusCode).toBe(500);
        expect(failed.json()).toEqual({ detail: 'Internal server error.' });
        expect(await companyRowsNamed(ctx, payload.company_name)).toEqual([]);
      });

      const retried = await postSignup(ctx, payload);
      expect(retried.statusCode).toBe(201);
    });

    it('is refused when the server is built with sign-up turned off', async () => {
      const closedApp = await buildTestApp({ database: ctx.database, jwtSecret: TEST_JWT_SECRET, allowSignup: false });
      try {
        const payload = signupPayload();

        const response = await closedApp.inject({ method: 'POST', url: '/api/signup/', payload });

        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({ detail: 'Sign-up is turned off on this server.' });
        expect(await companyRowsNamed(ctx, payload.company_name)).toEqual([]);
      } finally {
        await closedApp.close();
      }
    });
  });
});

describeEachDatabase(
  'companies API with PUBLIC_COMPANY_LIST=true',
  (ctx) => {
    it('lists every company to anyone, by name, a page at a time with the total', async () => {
      const first = await createCompany(ctx.app.db, { name: unique('Alpha') });
      const second = await createCompany(ctx.app.db, { name: unique('Beta') });

      const response = await ctx.app.inject({ method: 'GET', url: '/api/companies/' });
      const paged = await ctx.app.inject({ method: 'GET', url: '/api/companies/?limit=1&offset=1' });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([
        { id: first.id, company_id: first.id, name: first.name },
        { id: second.id, company_id: second.id, name: second.name },
      ]);
      expect(response.headers['x-total-count']).toBe('2');
      expect(paged.json()).toEqual([{ id: second.id, company_id: second.id, name: second.name }]);
      expect(paged.headers['x-total-count']).toBe('2');
    });
  },
  { publicCompanyList: true },
);
