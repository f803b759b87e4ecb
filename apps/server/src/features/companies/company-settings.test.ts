import { describe, expect, it } from 'vitest';
import type { TestContext } from '../../test/build-app';
import { describeEachDatabase } from '../../test/build-app';
import { createCompany, createUser, freshClientAddress, injectAs, loginAs, unique } from '../../test/factories';

async function signedInAdmin(ctx: TestContext, timezone?: string) {
  const company = await createCompany(ctx.app.db, { timezone });
  const { access } = await loginAs(ctx.app, company.admin);
  return { company, access };
}

function getCompany(ctx: TestContext, access: string) {
  return injectAs(ctx.app, access, { method: 'GET', url: '/api/company/' });
}

function patchCompany(ctx: TestContext, access: string, payload: object) {
  return injectAs(ctx.app, access, { method: 'PATCH', url: '/api/company/', payload });
}

function verifyCompany(ctx: TestContext, company_name: string, password: string) {
  return ctx.app.inject({ method: 'POST', url: '/api/verify-company-password/', payload: { company_name, password }, remoteAddress: freshClientAddress() });
}

describeEachDatabase('company settings API', (ctx) => {
  describe('PUT /api/company/password/', () => {
    it('an admin changes the company password: the new one opens the sign-in page, the old one no longer; nobody is signed out', async () => {
      const admin = await signedInAdmin(ctx);
      const other = await signedInAdmin(ctx);
      const manager = await createUser(ctx.app.db, admin.company.id, 'manager');
      const managerLogin = await loginAs(ctx.app, manager);
      expect((await verifyCompany(ctx, admin.company.name, admin.company.password)).json()).toMatchObject({ success: true });

      const changed = await injectAs(ctx.app, admin.access, { method: 'PUT', url: '/api/company/password/', payload: { password: 'a new gate 2026' } });
      expect(changed.statusCode, changed.body).toBe(204);

      expect((await verifyCompany(ctx, admin.company.name, admin.company.password)).json()).toMatchObject({ success: false });
      expect((await verifyCompany(ctx, admin.company.name, 'a new gate 2026')).json()).toMatchObject({ success: true, company_id: admin.company.id });
      // Another company keeps its own.
      expect((await verifyCompany(ctx, other.company.name, other.company.password)).json()).toMatchObject({ success: true });
      expect((await injectAs(ctx.app, managerLogin.access, { method: 'GET', url: '/api/profile/' })).statusCode).toBe(200);
    });

    it('refuses a manager or crew member (403, before the body) and a short password (400), changing nothing', async () => {
      const admin = await signedInAdmin(ctx);
      const manager = await createUser(ctx.app.db, admin.company.id, 'manager');
      const { access } = await loginAs(ctx.app, manager);
      expect((await injectAs(ctx.app, access, { method: 'PUT', url: '/api/company/password/', payload: { password: 'a new gate 2026' } })).statusCode).toBe(403);
      expect((await injectAs(ctx.app, access, { method: 'PUT', url: '/api/company/password/', payload: 'not json', headers: { 'content-type': 'application/json' } })).statusCode).toBe(403);
      const short = await injectAs(ctx.app, admin.access, { method: 'PUT', url: '/api/company/password/', payload: { password: 'short' } });
      expect(short.statusCode).toBe(400);
      expect(short.json().errors).toEqual({ password: ['Password must be at least 8 characters.'] });
      expect((await verifyCompany(ctx, admin.company.name, admin.company.password)).json()).toMatchObject({ success: true });
    });
  });

  describe('GET /api/company/', () => {
    it("answers the caller's own company to every role", async () => {
      const admin = await signedInAdmin(ctx, 'Europe/Paris');
      await signedInAdmin(ctx);
      const manager = await createUser(ctx.app.db, admin.company.id, 'manager');
      const member = await createUser(ctx.app.db, admin.company.id, 'team_member', { managerId: manager.id });
      const expected = { id: admin.company.id, name: admin.company.name, timezone: 'Europe/Paris', default_language: 'en' };

      expect((await getCompany(ctx, admin.access)).json()).toEqual(expected);
      for (const user of [manager, member]) {
        const { access } = await loginAs(ctx.app, user);
        const response = await getCompany(ctx, access);

        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual(expected);
      }
    });

    it('refuses a caller without a token', async () => {
      expect((await ctx.app.inject({ method: 'GET', url: '/api/company/' })).statusCode).toBe(401);
    });
  });

  describe('PATCH /api/company/', () => {
    it('renames the company and changes its time zone; the new name opens the company step', async () => {
      const admin = await signedInAdmin(ctx);
      const name = unique('Renamed Co');

      const response = await patchCompany(ctx, admin.access, { name: `  ${name} `, timezone: 'America/New_York', default_language: 'de' });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ id: admin.company.id, name, timezone: 'America/New_York', default_language: 'de' });
      expect((await getCompany(ctx, admin.access)).json()).toEqual(response.json());
      const verified = await ctx.app.inject({
        method: 'POST',
        url: '/api/verify-company-password/',
        remoteAddress: freshClientAddress(),
        payload: { company_name: name, password: admin.company.password },
      });
      expect(verified.json()).toEqual({ success: true, company_id: admin.company.id, company_name: expect.any(String) });
      const profile = await injectAs(ctx.app, admin.access, { method: 'GET', url: '/api/profile/' });
      expect(profile.json().company).toEqual({ id: admin.company.id, name });
    });

    it('stores a zone given by an older name under its canonical one', async () => {
      const admin = await signedInAdmin(ctx);

      const response = await patchCompany(ctx, admin.access, { timezone: 'Europe/Kiev' });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ timezone: 'Europe/Kyiv' });
      expect((await getCompany(ctx, admin.access)).json()).toMatchObject({ timezone: 'Europe/Kyiv' });
    });

    it('changes one field and leaves the other alone', async () => {
      const admin = await signedInAdmin(ctx, 'Asia/Tokyo');

      const response = await patchCompany(ctx, admin.access, { timezone: 'UTC' });

      expect(response.json()).toEqual({ id: admin.company.id, name: admin.company.name, timezone: 'UTC', default_language: 'en' });
    });

    it("refuses another company's name, whatever its case, with 409 and changes nothing", async () => {
      const admin = await signedInAdmin(ctx);
      const other = await signedInAdmin(ctx);

      const response = await patchCompany(ctx, admin.access, { name: other.company.name.toUpperCase(), timezone: 'Europe/Berlin' });

      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ detail: 'A company with this name already exists.' });
      expect((await getCompany(ctx, admin.access)).json()).toEqual({ id: admin.company.id, name: admin.company.name, timezone: 'UTC', default_language: 'en' });
    });

    it("lets a company change the case of its own name", async () => {
      const admin = await signedInAdmin(ctx);

      const response = await patchCompany(ctx, admin.access, { name: admin.company.name.toUpperCase() });

      expect(response.statusCode).toBe(200);
      expect(response.json().name).toBe(admin.company.name.toUpperCase());
    });

    it.each([
      ['an unknown time zone', { timezone: 'Mars/Olympus_Mons' }, 'timezone', 'Choose a valid time zone.'],
      ['a blank name', { name: '   ' }, 'name', 'Company name is required.'],
      ['a name too long', { name: 'x'.repeat(121) }, 'name', 'Company name must be at most 120 characters.'],
    ])('refuses %s with a field error', async (_case, payload, field, message) => {
      const admin = await signedInAdmin(ctx);

      const response = await patchCompany(ctx, admin.access, payload);

      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({ [field]: [message] });
      expect((await getCompany(ctx, admin.access)).json()).toEqual({ id: admin.company.id, name: admin.company.name, timezone: 'UTC', default_language: 'en' });
    });

    it('refuses an empty change', async () => {
      const admin = await signedInAdmin(ctx);

      const response = await patchCompany(ctx, admin.access, {});

      expect(response.statusCode).toBe(400);
      expect(response.json().detail).toMatch(/Nothing to update\./);
    });

    it('is for admins only', async () => {
      const admin = await signedInAdmin(ctx);
      const manager = await createUser(ctx.app.db, admin.company.id, 'manager');
      const { access } = await loginAs(ctx.app, manager);

      const response = await patchCompany(ctx, access, { name: unique('Hijacked') });

      expect(response.statusCode).toBe(403);
      expect((await getCompany(ctx, admin.access)).json().name).toBe(admin.company.name);
    });
  });

  it('documents both routes in the OpenAPI document', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();

    expect(Object.keys(document.paths['/api/company/']).sort()).toEqual(['get', 'patch']);
  });
});
