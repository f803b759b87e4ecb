import { dateInZone, timeZoneDocument } from '@siteboard/shared';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { localDate } from '../../lib/time';
import { users } from '../../schema/users';
import type { TestContext } from '../../test/build-app';
import { describeEachDatabase } from '../../test/build-app';
import { createCompany, createUser, freshClientAddress, injectAs, loginAs, unique } from '../../test/factories';
import { settleChanges } from '../../platform';

async function signedIn(ctx: TestContext, options: { timezone?: string; language?: 'en' | 'es' | 'fr' | 'de' } = {}) {
  const company = await createCompany(ctx.app.db, { timezone: options.timezone ?? 'Europe/Paris' });
  const member = await createUser(ctx.app.db, company.id, 'manager', { language: options.language });
  const { access } = await loginAs(ctx.app, member);
  return { company, member, access };
}

const profileOf = (ctx: TestContext, access: string) => injectAs(ctx.app, access, { method: 'GET', url: '/api/profile/' });
const patchProfile = (ctx: TestContext, access: string, payload: object) => injectAs(ctx.app, access, { method: 'PATCH', url: '/api/profile/', payload });

describeEachDatabase('profile language and time zone', (ctx) => {
  describe('GET and PATCH /api/profile/', () => {
    it("answers the user's language and zone; by default English and the company's zone", async () => {
      const { access, member } = await signedIn(ctx);

      const response = await profileOf(ctx, access);

      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: member.id, email: member.email, language: 'en', timezone: null, effective_timezone: 'Europe/Paris' });
      expect(response.headers['content-language']).toBe('en');
    });

    it('lets a user change their own language and zone; the next answers are in the new language', async () => {
      const { access } = await signedIn(ctx);

      const response = await patchProfile(ctx, access, { language: 'es', timezone: 'America/Mexico_City' });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ language: 'es', timezone: 'America/Mexico_City', effective_timezone: 'America/Mexico_City' });
      expect(response.headers['content-language']).toBe('es');
      expect((await profileOf(ctx, access)).json()).toMatchObject({ language: 'es', timezone: 'America/Mexico_City' });
      const missing = await injectAs(ctx.app, access, { method: 'GET', url: '/api/projects/2147483000/' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ detail: 'No se encontró el proyecto.' });
      expect(missing.headers['content-language']).toBe('es');
    });

    it("says whether the language is the user's own choice: not for one an admin made, yes once they pick one, not by a zone change", async () => {
      const company = await createCompany(ctx.app.db, { timezone: 'Europe/Paris' });
      await ctx.app.db.execute(sql`update companies set default_language = 'de' where id = ${company.id}`);
      const admin = await createUser(ctx.app.db, company.id, 'admin');
      const { access: adminAccess } = await loginAs(ctx.app, admin);
      const email = `${unique('made')}@example.test`;
      const made = await injectAs(ctx.app, adminAccess, { method: 'POST', url: '/api/users/', payload: { email, password: 'a-long-password-1', role: 'manager' } });
      expect(made.statusCode).toBe(201);
      const { access } = await loginAs(ctx.app, { id: made.json().id, email, password: 'a-long-password-1', role: 'manager', companyId: company.id });

      expect((await profileOf(ctx, access)).json()).toMatchObject({ language: 'de', language_chosen: false });
      expect((await patchProfile(ctx, access, { timezone: 'Europe/Madrid' })).json()).toMatchObject({ language: 'de', language_chosen: false });
      // The company's language, chosen again (the web app's first sign-in on a German phone), is chosen.
      expect((await patchProfile(ctx, access, { language: 'de' })).json()).toMatchObject({ language: 'de', language_chosen: true });
      expect((await patchProfile(ctx, access, { language: 'es' })).json()).toMatchObject({ language: 'es', language_chosen: true });
    });

    it('counts the language a company was signed up in as its first admin’s choice', async () => {
      const name = unique('Firma');
      const signup = await ctx.app.inject({
        method: 'POST',
        url: '/api/signup/',
        remoteAddress: freshClientAddress(),
        headers: { 'accept-language': 'de-DE,de;q=0.9' },
        payload: { company_name: name, company_password: 'company-password-1', email: `${unique('founder')}@example.test`, password: 'a-long-password-1' },
      });
      expect(signup.statusCode).toBe(201);
      const { user } = signup.json();
      const { access } = await loginAs(ctx.app, { id: user.id, email: user.email, password: 'a-long-password-1', role: 'admin', companyId: user.company_id });

      expect((await profileOf(ctx, access)).json()).toMatchObject({ language: 'de', language_chosen: true });
    });

    it('answers in a language changed behind its back (an operator’s SQL) once the database has announced it', async () => {
      const { access, member } = await signedIn(ctx);
      expect((await profileOf(ctx, access)).headers['content-language']).toBe('en');

      await ctx.app.db.update(users).set({ language: 'fr' }).where(eq(users.id, member.id));
      await settleChanges(ctx.app.db);

      const missing = await injectAs(ctx.app, access, { method: 'GET', url: '/api/projects/2147483000/' });
      expect(missing.json()).toEqual({ detail: 'Projet introuvable.' });
    });

    it('lets a user name themselves, keeping the rest; an empty name is none; a long one is refused in their language', async () => {
      const { access, member } = await signedIn(ctx, { language: 'de' });

      const named = await patchProfile(ctx, access, { full_name: '  Petra Schmidt ' });
      expect(named.statusCode, named.body).toBe(200);
      expect(named.json()).toMatchObject({ full_name: 'Petra Schmidt', language: 'de', email: member.email });
      const [row] = await ctx.app.db.select({ fullName: users.fullName, language: users.language }).from(users).where(eq(users.id, member.id));
      expect(row).toEqual({ fullName: 'Petra Schmidt', language: 'de' });

      expect((await patchProfile(ctx, access, { full_name: '' })).json()).toMatchObject({ full_name: null });
      const long = await patchProfile(ctx, access, { full_name: 'x'.repeat(121) });
      expect(long.statusCode).toBe(400);
      expect(long.json().errors.full_name).toEqual(['Vollständiger Name: höchstens 120 Zeichen.']);
    });

    it("goes back to the company's zone with null and changes one field alone", async () => {
      const { access } = await signedIn(ctx, { language: 'de' });
      await patchProfile(ctx, access, { timezone: 'Asia/Tokyo' });

      const response = await patchProfile(ctx, access, { timezone: null });

      expect(response.json()).toMatchObject({ language: 'de', timezone: null, effective_timezone: 'Europe/Paris' });
    });

    it.each([
      ['an unknown language', { language: 'pt' }, 'language', 'Wählen Sie Englisch, Spanisch, Französisch oder Deutsch.'],
      ['an unknown zone', { timezone: 'Mars/Olympus_Mons' }, 'timezone', 'Wählen Sie eine gültige Zeitzone.'],
      ['a zone that is not text', { timezone: 7 }, 'timezone', 'Wählen Sie eine gültige Zeitzone.'],
    ])('refuses %s with a field error in the caller’s language, changing nothing', async (_case, payload, field, message) => {
      const { access } = await signedIn(ctx, { language: 'de' });

      const response = await patchProfile(ctx, access, { ...payload });

      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({ [field]: [message] });
      expect(response.headers['content-language']).toBe('de');
      expect((await profileOf(ctx, access)).json()).toMatchObject({ language: 'de', timezone: null });
    });

    it('stores a zone given by an older name under its canonical one, and reads a zone stored by an old name', async () => {
      const { access, member } = await signedIn(ctx, { language: 'es' });

      for (const [given, stored] of [['Asia/Calcutta', 'Asia/Kolkata'], ['Europe/Kiev', 'Europe/Kyiv'], ['US/Pacific', 'America/Los_Angeles'], ['Etc/UTC', 'UTC']]) {
        const response = await patchProfile(ctx, access, { timezone: given });
        expect(response.statusCode, given).toBe(200);
        expect(response.json(), given).toMatchObject({ timezone: stored, effective_timezone: stored });
      }
      const [row] = await ctx.app.db.select({ timezone: users.timezone }).from(users).where(eq(users.id, member.id));
      expect(row).toEqual({ timezone: 'UTC' });

      // Stored before this rule (or by an operator): still read, and "today" still computed from it.
      await ctx.app.db.update(users).set({ timezone: 'Asia/Calcutta' }).where(eq(users.id, member.id));
      expect((await profileOf(ctx, access)).json()).toMatchObject({ timezone: 'Asia/Calcutta', effective_timezone: 'Asia/Calcutta' });
      expect((await injectAs(ctx.app, access, { method: 'GET', url: '/api/subtasks/?limit=1' })).statusCode).toBe(200);

      const unknown = await patchProfile(ctx, access, { timezone: 'US/Pacific-New' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().errors).toEqual({ timezone: ['Elige una zona horaria válida.'] });
    });

    it("computes the same \"today\" as the web's clock (dateInZone) for every zone a person may choose", async () => {
      const zones = timeZoneDocument().enum;
      // Around midnight UTC, either side of a summer-time change and of the date line; in a past year, since
      // the embedded database carries tz data of its own, whose predicted rules (Morocco's) may differ later.
      for (const instant of [new Date('2025-03-30T00:30:00Z'), new Date('2025-10-26T23:45:00Z'), new Date('2025-06-30T11:15:00Z')]) {
        const result = await ctx.app.db.execute<{ zone: string; date: string }>(
          sql`select zone, ${localDate(sql`zone`, instant)}::text as date from unnest(${`{${zones.join(',')}}`}::text[]) as zone`,
        );
        const rows = (result as unknown as { rows: { zone: string; date: string }[] }).rows;
        expect(rows.length).toBe(zones.length);
        expect(rows.filter((row) => row.date !== dateInZone(row.zone, instant)).map((row) => `${row.zone} ${row.date} ${instant.toISOString()}`)).toEqual([]);
      }
    });

    it('refuses an empty change', async () => {
      const { access } = await signedIn(ctx, { language: 'fr' });

      const response = await patchProfile(ctx, access, {});

      expect(response.statusCode).toBe(400);
      expect(response.json().detail).toBe("La requête n’est pas valide (body) : Rien à modifier.");
    });

    it('refuses a caller without a token, in the browser’s language', async () => {
      const response = await ctx.app.inject({ method: 'PATCH', url: '/api/profile/', headers: { 'accept-language': 'fr-CA,fr;q=0.9' }, payload: { language: 'es' } });

      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ detail: 'Les identifiants de connexion sont absents.' });
      expect(response.headers['content-language']).toBe('fr');
    });
  });

  describe('errors in the reader’s language', () => {
    it('follows Accept-Language before sign-in: details and field errors', async () => {
      const company = await createCompany(ctx.app.db);

      const wrong = await ctx.app.inject({
        method: 'POST',
        url: '/api/token/',
        remoteAddress: freshClientAddress(),
        headers: { 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' },
        payload: { email: company.admin.email, password: 'not the password', role: 'admin', company_id: company.id },
      });
      const invalid = await ctx.app.inject({
        method: 'POST',
        url: '/api/token/',
        remoteAddress: freshClientAddress(),
        headers: { 'accept-language': 'de' },
        payload: { email: 'not an address', password: '', role: 'admin', company_id: company.id },
      });
      const english = await ctx.app.inject({ method: 'POST', url: '/api/verify-company-password/', remoteAddress: freshClientAddress(), payload: { company_name: company.name, password: 'nope' } });
      const french = await ctx.app.inject({
        method: 'POST',
        url: '/api/verify-company-password/',
        remoteAddress: freshClientAddress(),
        headers: { 'accept-language': 'fr' },
        payload: { company_name: company.name, password: 'nope' },
      });

      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual({ detail: 'No hay ninguna cuenta activa con esos datos de acceso.' });
      expect(wrong.headers['content-language']).toBe('es');
      expect(wrong.headers.vary).toContain('Accept-Language');
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json().errors).toEqual({ email: ['Geben Sie eine gültige E-Mail-Adresse ein.'], password: ['Das Passwort ist erforderlich.'] });
      expect(english.json()).toEqual({ success: false, error: 'Invalid company name or password.' });
      expect(french.json()).toEqual({ success: false, error: "Nom d’entreprise ou mot de passe incorrect." });
    });

    it("follows the signed-in user's language whatever the browser says, labels of field errors included", async () => {
      const company = await createCompany(ctx.app.db);
      const { access } = await loginAs(ctx.app, company.admin);
      await patchProfile(ctx, access, { language: 'de' });

      const response = await injectAs(ctx.app, access, {
        method: 'POST',
        url: '/api/projects/',
        headers: { 'accept-language': 'es' },
        payload: { name: 'Dock', start_date: '2026-02-30' },
      });

      expect(response.statusCode).toBe(400);
      expect(response.headers['content-language']).toBe('de');
      expect(response.json().errors).toMatchObject({
        start_date: ['Startdatum: Das Datum muss im Kalender existieren.'],
        end_date: ['Enddatum: Angabe erforderlich.'],
      });
    });

    it('translates the refusal of a body that cannot be read (not JSON, empty, another media type); English stays as it was', async () => {
      const post = (headers: Record<string, string>, payload: string) =>
        ctx.app.inject({ method: 'POST', url: '/api/token/', remoteAddress: freshClientAddress(), headers: { 'accept-language': 'de', ...headers }, payload });

      const broken = await post({ 'content-type': 'application/json' }, '{"email":');
      const empty = await post({ 'content-type': 'application/json' }, '');
      const xml = await post({ 'content-type': 'application/xml' }, '<login/>');
      const english = await post({ 'content-type': 'application/json', 'accept-language': 'en' }, '{"email":');

      expect(broken.statusCode).toBe(400);
      expect(broken.json()).toEqual({ detail: "Die Anfrage ist kein gültiges JSON, obwohl ihr Content-Type 'application/json' lautet" });
      expect(empty.json()).toEqual({ detail: "Die Anfrage darf nicht leer sein, wenn ihr Content-Type 'application/json' lautet" });
      expect(xml.statusCode).toBe(415);
      expect(xml.json()).toEqual({ detail: 'Nicht unterstützter Medientyp' });
      expect(english.json()).toEqual({ detail: "Body is not valid JSON but content-type is set to 'application/json'" });
    });

    it('keeps the specification’s English texts byte for byte', async () => {
      const { access } = await signedIn(ctx);

      const response = await injectAs(ctx.app, access, { method: 'GET', url: '/api/projects/2147483000/' });

      expect(response.json()).toEqual({ detail: 'Project not found.' });
    });
  });

  describe('the language new users start in', () => {
    it("is the company's default language, which an admin sets", async () => {
      const company = await createCompany(ctx.app.db);
      const { access } = await loginAs(ctx.app, company.admin);

      const settings = await injectAs(ctx.app, access, { method: 'PATCH', url: '/api/company/', payload: { default_language: 'fr' } });
      const created = await injectAs(ctx.app, access, {
        method: 'POST',
        url: '/api/users/',
        payload: { email: `${unique('new')}@example.test`, password: 'long enough password', role: 'manager' },
      });

      expect(settings.json()).toMatchObject({ default_language: 'fr' });
      expect(created.statusCode).toBe(201);
      const { access: newAccess } = await loginAs(ctx.app, { id: created.json().id, email: created.json().email, role: 'manager', companyId: company.id, password: 'long enough password' });
      expect((await profileOf(ctx, newAccess)).json()).toMatchObject({ language: 'fr' });
      expect((await profileOf(ctx, access)).json()).toMatchObject({ language: 'en' });
    });

    it('refuses an unknown default language', async () => {
      const company = await createCompany(ctx.app.db);
      const { access } = await loginAs(ctx.app, company.admin);

      const response = await injectAs(ctx.app, access, { method: 'PATCH', url: '/api/company/', payload: { default_language: 'xx' } });

      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({ default_language: ['Choose English, Spanish, French or German.'] });
    });

    it("is the browser's language for a company signed up without one", async () => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/signup/',
        remoteAddress: freshClientAddress(),
        headers: { 'accept-language': 'es-ES,es;q=0.9' },
        payload: { company_name: unique('Obras'), company_password: 'company password', email: `${unique('admin')}@example.test`, password: 'long enough password' },
      });
      expect(response.statusCode).toBe(201);
      const { access } = await loginAs(ctx.app, { id: response.json().user.id, email: response.json().user.email, role: 'admin', companyId: response.json().company_id, password: 'long enough password' });

      expect((await profileOf(ctx, access)).json()).toMatchObject({ language: 'es' });
      expect((await injectAs(ctx.app, access, { method: 'GET', url: '/api/company/' })).json()).toMatchObject({ default_language: 'es' });
    });
  });
});
