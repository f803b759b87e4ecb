import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { invitations } from '../../schema/invitations';
import { jobs } from '../../schema/jobs';
import { signedInAdmin, call, createThroughApi } from '../../test/api-users';
import { describeEachDatabase, type TestContext } from '../../test/build-app';
import { createCompany, createUser, freshClientAddress, injectAs, loginAs, unique } from '../../test/factories';
import { linkIn, sharedMailServer } from '../../test/mail-server';
import { whileUncommitted } from '../../test/uncommitted';
import { PASSWORD_RESET_QUEUE } from './invitations.service';

const mailServer = await sharedMailServer();
const PUBLIC_URL = 'https://siteboard.example.test';
const mailOptions = { mail: { smtpUrl: mailServer.url, from: 'SiteBoard <noreply@siteboard.example.test>' }, publicUrl: PUBLIC_URL, jobPollMs: 200 };

const tokenOf = (url: URL) => url.searchParams.get('token')!;

async function invitedMail(address: string, count = 1) {
  const mails = await mailServer.waitForMails(address, count);
  return mails[count - 1]!;
}

function publicCall(ctx: TestContext, method: 'GET' | 'POST', url: string, payload?: object) {
  return ctx.app.inject({ method, url, payload, remoteAddress: freshClientAddress() });
}

describeEachDatabase(
  'invitations by e-mail',
  (ctx) => {
    it('invites a team member: the mail links to a page that signs them in with the password they choose', async () => {
      const admin = await signedInAdmin(ctx);
      const manager = await createThroughApi(ctx, admin, { full_name: 'Maria Gómez' });
      const email = `${unique('invitee')}@example.test`;

      const created = await call(ctx, admin.access, 'POST', '/api/invitations/', { email, role: 'team_member', full_name: 'Lee Chan', manager_id: manager.id });

      expect(created.statusCode, created.body).toBe(201);
      const invitation = created.json();
      expect(invitation).toMatchObject({ email, role: 'team_member' });
      const hoursLeft = (Date.parse(invitation.expires_at) - Date.now()) / 3_600_000;
      expect(hoursLeft).toBeGreaterThan(71.9);
      expect(hoursLeft).toBeLessThanOrEqual(72);
      expect((await call(ctx, admin.access, 'GET', '/api/invitations/')).json()).toEqual([expect.objectContaining({ id: invitation.id, email })]);

      const mail = await invitedMail(email);
      expect(mail.subject).toBe(`You are invited to ${admin.company.name} on SiteBoard`);
      expect(mail.from?.value).toEqual([{ name: 'SiteBoard', address: 'noreply@siteboard.example.test' }]);
      expect(mail.to).toMatchObject({ value: [{ name: 'Lee Chan', address: email }] });
      expect(mail.messageId).toMatch(/^<[0-9a-f-]{36}@siteboard\.example\.test>$/);
      expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
      expect(Math.abs(mail.date!.getTime() - Date.now())).toBeLessThan(60_000);
      // The admin signed up without a name: the company is not named twice in its place.
      expect(mail.text).toContain(`You are invited to join ${admin.company.name} on SiteBoard as a team member.`);
      expect(mail.html).toContain('Accept the invitation');
      // The way back in after the link is spent, on a new phone: the company's own sign-in page.
      expect(mail.text).toContain(`sign in on any device at https://siteboard.example.test/login?companyId=${admin.company.id} with your e-mail`);
      expect(mail.html).not.toMatch(/<img|src=/i);
      const link = linkIn(mail, '/accept-invitation?token=');
      expect(link.origin).toBe(PUBLIC_URL);
      expect(mail.html).toContain(link.href.replaceAll('&', '&#38;'));

      const preview = await publicCall(ctx, 'GET', `/api/invitations/accept/?token=${tokenOf(link)}`);
      expect(preview.statusCode).toBe(200);
      expect(preview.json()).toEqual({ email, company: { id: admin.company.id, name: admin.company.name }, role: 'team_member', full_name: 'Lee Chan' });

      const accepted = await publicCall(ctx, 'POST', '/api/invitations/accept/', { token: tokenOf(link), password: 'a new password of mine', full_name: 'Lee Chan-Wook' });
      expect(accepted.statusCode, accepted.body).toBe(201);
      const answer = accepted.json();
      expect(answer.user).toMatchObject({ email, role: 'team_member', full_name: 'Lee Chan-Wook', manager_id: manager.id, company_id: admin.company.id, must_change_password: false });
      expect((await injectAs(ctx.app, answer.access, { method: 'GET', url: '/api/profile/' })).json()).toMatchObject({ email });
      // The password they chose signs them in.
      await loginAs(ctx.app, { id: answer.user.id, email, role: 'team_member', companyId: admin.company.id, password: 'a new password of mine' });

      // The link worked once; the invitation is no longer pending.
      const again = await publicCall(ctx, 'POST', '/api/invitations/accept/', { token: tokenOf(link), password: 'another password', full_name: null });
      expect(again.statusCode).toBe(410);
      expect((await publicCall(ctx, 'GET', `/api/invitations/accept/?token=${tokenOf(link)}`)).statusCode).toBe(410);
      expect((await call(ctx, admin.access, 'GET', '/api/invitations/')).json()).toEqual([]);
    });

    it("writes the invitation in the company's language", async () => {
      const company = await createCompany(ctx.app.db, { language: 'de' });
      const { access } = await loginAs(ctx.app, company.admin);
      const email = `${unique('eingeladen')}@example.test`;

      expect((await call(ctx, access, 'POST', '/api/invitations/', { email, role: 'manager' })).statusCode).toBe(201);

      const mail = await invitedMail(email);
      expect(mail.subject).toBe(`Einladung zu ${company.name} bei SiteBoard`);
      expect(mail.text).toContain('als Bauleiter');
      expect(mail.html).toContain('<html lang="de">');
      expect(mail.html).toContain('Einladung annehmen');
    });

    it('writes the invitation in the language the inviter chose, which the person starts in; left out, in the inviter’s own', async () => {
      const company = await createCompany(ctx.app.db, { language: 'de' });
      const { access } = await loginAs(ctx.app, company.admin);
      const french = `${unique('francaise')}@example.test`;

      const created = await call(ctx, access, 'POST', '/api/invitations/', { email: french, role: 'manager', language: 'fr' });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json()).toMatchObject({ language: 'fr' });
      const mail = await invitedMail(french);
      expect(mail.html).toContain('<html lang="fr">');
      expect(mail.text).toMatch(/^Accepter l’invitation\u00a0:$/m);
      // A resend keeps it.
      expect((await call(ctx, access, 'POST', `/api/invitations/${created.json().id}/resend/`)).statusCode).toBe(202);
      const resent = await invitedMail(french, 2);
      expect(resent.html).toContain('<html lang="fr">');

      const accepted = await publicCall(ctx, 'POST', '/api/invitations/accept/', { token: tokenOf(linkIn(resent, '/accept-invitation?token=')), password: 'a new password of mine', full_name: null });
      expect(accepted.statusCode, accepted.body).toBe(201);
      // Not yet their own choice: their device's language is taken at their first sign-in (decision record 103).
      expect((await injectAs(ctx.app, accepted.json().access, { method: 'GET', url: '/api/profile/' })).json()).toMatchObject({ language: 'fr', language_chosen: false });

      // The German company's admin reads SiteBoard in Spanish: who they invite without choosing gets Spanish.
      expect((await injectAs(ctx.app, access, { method: 'PATCH', url: '/api/profile/', payload: { language: 'es' } })).statusCode).toBe(200);
      const spanish = `${unique('espanol')}@example.test`;
      expect((await call(ctx, access, 'POST', '/api/invitations/', { email: spanish, role: 'manager' })).json()).toMatchObject({ language: 'es' });
      expect((await invitedMail(spanish)).html).toContain('<html lang="es">');

      const wrong = await call(ctx, access, 'POST', '/api/invitations/', { email: `${unique('x')}@example.test`, role: 'manager', language: 'pl' });
      expect(wrong.statusCode).toBe(400);
    });

    it("sets the link's label in a French mail's text as French does, with a space before its colon", async () => {
      const company = await createCompany(ctx.app.db, { language: 'fr' });
      const { access } = await loginAs(ctx.app, company.admin);
      const email = `${unique('invite')}@example.test`;
      expect((await call(ctx, access, 'POST', '/api/invitations/', { email, role: 'manager' })).statusCode).toBe(201);

      const mail = await invitedMail(email);
      expect(mail.text).toMatch(/^Accepter l’invitation\u00a0:\nhttps:\/\/siteboard\.example\.test\/accept-invitation\?token=/m);
    });

    it('refuses an address that already belongs to a user of the company (409), and a non-admin (403)', async () => {
      const admin = await signedInAdmin(ctx);
      const manager = await createThroughApi(ctx, admin);

      const taken = await call(ctx, admin.access, 'POST', '/api/invitations/', { email: manager.email.toUpperCase(), role: 'manager' });
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toEqual({ detail: 'A user with this email already exists in your company.' });

      const { access } = await loginAs(ctx.app, manager);
      expect((await call(ctx, access, 'POST', '/api/invitations/', { email: `${unique('x')}@example.test`, role: 'manager' })).statusCode).toBe(403);
      expect((await call(ctx, access, 'GET', '/api/invitations/')).statusCode).toBe(403);
      expect((await call(ctx, admin.access, 'POST', '/api/invitations/', { email: `${unique('x')}@example.test`, role: 'team_member' })).statusCode).toBe(400);
    });

    it('resends with a new link (the old one stops working) and revokes', async () => {
      const admin = await signedInAdmin(ctx);
      const email = `${unique('resent')}@example.test`;
      const { id } = (await call(ctx, admin.access, 'POST', '/api/invitations/', { email, role: 'manager' })).json();
      const first = tokenOf(linkIn(await invitedMail(email), '/accept-invitation?token='));

      expect((await call(ctx, admin.access, 'POST', `/api/invitations/${id}/resend/`)).statusCode).toBe(202);
      const second = tokenOf(linkIn(await invitedMail(email, 2), '/accept-invitation?token='));
      expect(second).not.toBe(first);
      expect((await publicCall(ctx, 'GET', `/api/invitations/accept/?token=${first}`)).statusCode).toBe(410);
      expect((await publicCall(ctx, 'GET', `/api/invitations/accept/?token=${second}`)).statusCode).toBe(200);

      expect((await call(ctx, admin.access, 'DELETE', `/api/invitations/${id}/`)).statusCode).toBe(204);
      const revoked = await publicCall(ctx, 'POST', '/api/invitations/accept/', { token: second, password: 'a new password of mine', full_name: null });
      expect(revoked.statusCode).toBe(410);
      expect(revoked.json().detail).toContain('already used, revoked or has expired');
      expect((await call(ctx, admin.access, 'DELETE', `/api/invitations/${id}/`)).statusCode).toBe(404);

      // Another company's invitation does not exist for this admin.
      const other = await signedInAdmin(ctx);
      const theirs = (await call(ctx, other.access, 'POST', '/api/invitations/', { email: `${unique('theirs')}@example.test`, role: 'manager' })).json();
      expect((await call(ctx, admin.access, 'POST', `/api/invitations/${theirs.id}/resend/`)).statusCode).toBe(404);
      expect((await call(ctx, admin.access, 'DELETE', `/api/invitations/${theirs.id}/`)).statusCode).toBe(404);
    });

    it('says on the pending list that a refused mail was not delivered, with the server’s reason, in one statement; a resend starts afresh', async () => {
      const admin = await signedInAdmin(ctx);
      const refused = `${unique('refused')}@example.test`;
      const delivered = `${unique('welcome')}@example.test`;
      const created = await call(ctx, admin.access, 'POST', '/api/invitations/', { email: refused, role: 'manager', full_name: 'Nadia Nowhere' });
      const { id } = created.json();
      // Answered before any mail server saw it: queued, not "sent".
      expect(created.json().delivery).toEqual({ state: 'sending', at: null, error: null });
      expect((await call(ctx, admin.access, 'POST', '/api/invitations/', { email: delivered, role: 'manager' })).statusCode).toBe(201);
      await ctx.app.jobs.idle(['mail']);

      ctx.queries.length = 0;
      const list = (await call(ctx, admin.access, 'GET', '/api/invitations/')).json();
      // The sign-in check and the list with each mail's fate: no statement per invitation. The job
      // runner's own polls and claims may land meanwhile on a busy machine; they are not the request's.
      const byTheRequest = ctx.queries.filter((statement) => !/^\s*(with next as|update "jobs"|delete from "jobs")|from "jobs"/.test(statement));
      expect(byTheRequest.length).toBeLessThanOrEqual(2);
      const failed = (await call(ctx, admin.access, 'GET', '/api/email/failed/')).json();
      expect(failed).toEqual([expect.objectContaining({ to: refused, error: expect.stringMatching(/550.*No such mailbox here/) })]);
      expect(list).toEqual([
        expect.objectContaining({
          email: refused,
          undelivered: { error: failed[0].error, failed_at: failed[0].failed_at },
          delivery: { state: 'undelivered', at: failed[0].failed_at, error: failed[0].error },
        }),
        expect.objectContaining({ email: delivered, undelivered: null, delivery: { state: 'sent', at: expect.any(String), error: null } }),
      ]);
      // Sent is when the mail server accepted it, as its job recorded.
      const [acceptance] = await ctx.app.db.select({ checkpoint: jobs.checkpoint }).from(jobs).innerJoin(invitations, eq(invitations.mailJobId, jobs.id)).where(eq(invitations.email, delivered));
      expect(list[1].delivery.at).toBe((acceptance!.checkpoint as { accepted_at: string }).accepted_at);

      // A new link goes out in a new mail: the row tells that mail's fate, not the first one's.
      expect((await call(ctx, admin.access, 'POST', `/api/invitations/${id}/resend/`)).statusCode).toBe(202);
      await ctx.app.jobs.idle(['mail']);
      const [again] = (await call(ctx, admin.access, 'GET', '/api/invitations/')).json();
      expect(again.undelivered.error).toMatch(/550/);
      expect(Date.parse(again.undelivered.failed_at)).toBeGreaterThan(Date.parse(failed[0].failed_at));
    });

    it('says a mail being retried is still on its way, with the last attempt’s reason and when it is tried next', async () => {
      const admin = await signedInAdmin(ctx);
      const email = `${unique('later')}@example.test`;
      const { id } = (await call(ctx, admin.access, 'POST', '/api/invitations/', { email, role: 'manager' })).json();
      await ctx.app.jobs.idle(['mail']);
      const [{ mailJobId }] = await ctx.app.db.select({ mailJobId: invitations.mailJobId }).from(invitations).where(eq(invitations.id, id));
      // As the runner leaves a mail whose attempt the SMTP server put off (a 4xx): queued again, an hour
      // later (the test's SMTP server only accepts or refuses for good).
      const nextAttempt = new Date(Date.now() + 3_600_000);
      await ctx.app.db
        .update(jobs)
        .set({ status: 'queued', attempts: 1, lastError: '451 4.7.1 Greylisted, try again later', runAt: nextAttempt, checkpoint: null, finishedAt: null })
        .where(eq(jobs.id, mailJobId!));
      const row = (await call(ctx, admin.access, 'GET', '/api/invitations/')).json().find((invitation: { id: number }) => invitation.id === id);
      expect(row.delivery).toEqual({ state: 'sending', at: nextAttempt.toISOString(), error: '451 4.7.1 Greylisted, try again later' });
      expect(row.undelivered).toBeNull();

      // Being tried again (the runner keeps run_at as it was when it claims a job): no "next attempt" gone by.
      await ctx.app.db
        .update(jobs)
        .set({ status: 'running', runAt: new Date(Date.now() - 60_000), lockedBy: 'another instance', lockedUntil: new Date(Date.now() + 3_600_000) })
        .where(eq(jobs.id, mailJobId!));
      const retrying = (await call(ctx, admin.access, 'GET', '/api/invitations/')).json().find((invitation: { id: number }) => invitation.id === id);
      expect(retrying.delivery).toEqual({ state: 'sending', at: null, error: '451 4.7.1 Greylisted, try again later' });
    });

    it("refuses another company's invitation with 404 before reading the body, and leaves it working", async () => {
      const admin = await signedInAdmin(ctx);
      const other = await signedInAdmin(ctx);
      const email = `${unique('theirs')}@example.test`;
      const theirs = (await call(ctx, other.access, 'POST', '/api/invitations/', { email, role: 'manager' })).json();
      const link = tokenOf(linkIn(await invitedMail(email), '/accept-invitation?token='));
      const broken = { payload: '{"reason": ', headers: { 'content-type': 'application/json' } };

      for (const [method, url] of [['POST', `/api/invitations/${theirs.id}/resend/`], ['DELETE', `/api/invitations/${theirs.id}/`]] as const) {
        const refused = await injectAs(ctx.app, admin.access, { method, url, ...broken });
        expect(refused.statusCode, `${method} ${url}: ${refused.body}`).toBe(404);
        expect(refused.body).not.toContain(email);
      }
      // Its own admin's link still opens it.
      expect((await publicCall(ctx, 'GET', `/api/invitations/accept/?token=${link}`)).statusCode).toBe(200);
    });

    it('refuses an expired link (410)', async () => {
      const admin = await signedInAdmin(ctx);
      const email = `${unique('late')}@example.test`;
      const { id } = (await call(ctx, admin.access, 'POST', '/api/invitations/', { email, role: 'manager' })).json();
      const token = tokenOf(linkIn(await invitedMail(email), '/accept-invitation?token='));

      await ctx.app.db.update(invitations).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(invitations.id, id));

      expect((await publicCall(ctx, 'POST', '/api/invitations/accept/', { token, password: 'a new password of mine', full_name: null })).statusCode).toBe(410);
    });

    it('takes two invitations of one address at once in turns: the second replaces the first, no error', async () => {
      const admin = await signedInAdmin(ctx);
      for (let round = 0; round < 5; round++) {
        const email = `${unique('twice')}@example.test`;
        const body = { email, role: 'manager', full_name: 'Ines Twice' };
        const answers = await Promise.all([1, 2].map(() => call(ctx, admin.access, 'POST', '/api/invitations/', body)));
        expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201]);
        const pending = (await call(ctx, admin.access, 'GET', '/api/invitations/')).json().filter((invitation: { email: string }) => invitation.email === email);
        expect(pending).toHaveLength(1);
      }
    });

    it("refuses an invitation into a manager's team once that manager is deleted, whichever went first", async ({ skip }) => {
      // The embedded database runs one transaction at a time: nothing can read between a deletion and its commit.
      if (ctx.kind !== 'postgres') skip();
      const admin = await signedInAdmin(ctx);
      const manager = await createThroughApi(ctx, admin, { full_name: 'Leaving Manager' });
      // The deletion, its row marked but not committed, while the invitation is sent.
      const answer = await whileUncommitted(
        ctx.app.db,
        (tx) => tx.execute(sql`update users set deleted_at = now() where id = ${manager.id}`),
        () => call(ctx, admin.access, 'POST', '/api/invitations/', { email: `${unique('late')}@example.test`, role: 'team_member', full_name: 'Too Late', manager_id: manager.id }),
      );
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().errors).toHaveProperty('manager_id');
    });

    it("answers another company's manager, or none, as manager_id with 404 and a team member of the company with 400, inviting no one", async () => {
      const admin = await signedInAdmin(ctx);
      const other = await signedInAdmin(ctx);
      const foreignManager = await createThroughApi(ctx, other);
      const manager = await createThroughApi(ctx, admin);
      const member = await createThroughApi(ctx, admin, { role: 'team_member', manager_id: manager.id });
      const invite = (managerId: number) => call(ctx, admin.access, 'POST', '/api/invitations/', { email: `${unique('x')}@example.test`, role: 'team_member', manager_id: managerId });

      for (const managerId of [foreignManager.id, 999_999]) {
        const refused = await invite(managerId);
        expect(refused.statusCode).toBe(404);
        expect(refused.json()).toEqual({ detail: 'User not found.' });
      }
      const notAManager = await invite(member.id);
      expect(notAManager.statusCode).toBe(400);
      expect(notAManager.json().errors).toEqual({ manager_id: ['Select an active manager of your company.'] });
      expect((await call(ctx, admin.access, 'GET', '/api/invitations/')).json()).toEqual([]);
    });
  },
  mailOptions,
);

describeEachDatabase(
  'forgotten passwords',
  (ctx) => {
    it('mails a one-hour link in the user’s language; the new password works and every old session ends', async () => {
      const company = await createCompany(ctx.app.db);
      const user = await createUser(ctx.app.db, company.id, 'manager', { language: 'de', fullName: 'Jonas Weber' });
      const before = await loginAs(ctx.app, user);
      // The calendar feed's secret URL is a credential too: a reset after a compromise ends it.
      const feed = await injectAs(ctx.app, before.access, { method: 'POST', url: '/api/calendar-feed/', payload: {} });
      expect(feed.statusCode, feed.body).toBe(201);
      const feedPath = new URL(feed.json<{ url: string }>().url).pathname;
      expect((await publicCall(ctx, 'GET', feedPath)).statusCode).toBe(200);

      const asked = await publicCall(ctx, 'POST', '/api/password-reset/', { company_id: company.id, email: user.email.toUpperCase() });
      expect(asked.statusCode).toBe(202);

      const mail = (await mailServer.waitForMails(user.email))[0]!;
      expect(mail.subject).toBe('Ihr SiteBoard-Passwort zurücksetzen');
      expect(mail.to).toMatchObject({ value: [{ name: 'Jonas Weber', address: user.email }] });
      expect(mail.text).toContain('Hallo Jonas Weber,');
      const token = tokenOf(linkIn(mail, '/reset-password?token='));

      const confirmed = await publicCall(ctx, 'POST', '/api/password-reset/confirm/', { token, password: 'my brand new password' });
      expect(confirmed.statusCode, confirmed.body).toBe(200);

      expect((await injectAs(ctx.app, before.access, { method: 'GET', url: '/api/profile/' })).statusCode).toBe(401);
      expect((await publicCall(ctx, 'POST', '/api/token/refresh/', { refresh: before.refresh })).statusCode).toBe(401);
      expect((await publicCall(ctx, 'GET', feedPath)).statusCode).toBe(404);
      await expect(loginAs(ctx.app, user)).rejects.toThrow(/401/);
      await loginAs(ctx.app, { ...user, password: 'my brand new password' });
      expect((await publicCall(ctx, 'POST', '/api/password-reset/confirm/', { token, password: 'yet another password' })).statusCode).toBe(410);
    });

    it('answers 202 for an address with no account, and mails nothing', async () => {
      const company = await createCompany(ctx.app.db);
      const email = `${unique('nobody')}@example.test`;
      const known = await createUser(ctx.app.db, company.id, 'team_member');

      const unknown = await publicCall(ctx, 'POST', '/api/password-reset/', { company_id: company.id, email });
      const existing = await publicCall(ctx, 'POST', '/api/password-reset/', { company_id: company.id, email: known.email });

      expect(unknown.statusCode).toBe(202);
      expect(unknown.json()).toEqual(existing.json());
      await mailServer.waitForMails(known.email);
      await ctx.app.jobs.idle([PASSWORD_RESET_QUEUE, 'mail']);
      expect(await mailServer.mailsTo(email)).toEqual([]);
    });

    it('does the same work for an address with an account as for one without, the mail made afterwards', async () => {
      const company = await createCompany(ctx.app.db);
      const known = await createUser(ctx.app.db, company.id, 'team_member');
      // What the request itself runs, statement by statement (a known address took a lookup, a link and a mail more: its answer came later).
      const statementsOf = async (email: string) => {
        await ctx.app.jobs.idle();
        ctx.queries.length = 0;
        expect((await publicCall(ctx, 'POST', '/api/password-reset/', { company_id: company.id, email })).statusCode).toBe(202);
        // Up to the job it queues, without the job runner's own looking for work, which may fall in between.
        const own = ctx.queries.filter((statement) => !statement.includes('"jobs"') || statement.includes('insert into "jobs"'));
        const queued = own.findIndex((statement) => statement.includes('insert into "jobs"'));
        return queued === -1 ? own : own.slice(0, queued + 1);
      };
      const forNobody = await statementsOf(`${unique('nobody')}@example.test`);
      const forKnown = await statementsOf(known.email);
      expect(forKnown).toEqual(forNobody);
      expect((await mailServer.waitForMails(known.email))[0]!.text).toContain('/reset-password?token=');
    });

    it('throttles requests for one account from one address as sign-in does', async () => {
      const company = await createCompany(ctx.app.db);
      const email = `${unique('spam')}@example.test`;
      const remoteAddress = freshClientAddress();
      const ask = () => ctx.app.inject({ method: 'POST', url: '/api/password-reset/', remoteAddress, payload: { company_id: company.id, email } });

      for (let attempt = 0; attempt < 5; attempt++) expect((await ask()).statusCode).toBe(202);
      expect((await ask()).statusCode).toBe(429);
    });

    it('refuses an expired link (410)', async () => {
      const company = await createCompany(ctx.app.db);
      const user = await createUser(ctx.app.db, company.id, 'manager');
      await publicCall(ctx, 'POST', '/api/password-reset/', { company_id: company.id, email: user.email });
      const token = tokenOf(linkIn((await mailServer.waitForMails(user.email))[0]!, '/reset-password?token='));

      await ctx.app.db.execute(sql`update password_resets set expires_at = now() - interval '1 second' where user_id = ${user.id}`);

      expect((await publicCall(ctx, 'POST', '/api/password-reset/confirm/', { token, password: 'my brand new password' })).statusCode).toBe(410);
    });
  },
  mailOptions,
);

describe('without SMTP_URL', () => {
  describeEachDatabase('e-mail off', (ctx) => {
    it('says so, refuses invitations with a clear message, and still answers forgotten passwords with 202', async () => {
      const admin = await signedInAdmin(ctx);
      expect((await ctx.app.inject({ method: 'GET', url: '/api/email/' })).json()).toEqual({ configured: false });
      const invited = await call(ctx, admin.access, 'POST', '/api/invitations/', { email: `${unique('x')}@example.test`, role: 'manager' });
      expect(invited.statusCode).toBe(409);
      expect(invited.json()).toEqual({ detail: 'E-mail is not configured on this server.' });
      // An invitation that is not the company's is not found, whatever the server can send.
      expect((await call(ctx, admin.access, 'POST', '/api/invitations/2147483647/resend/')).statusCode).toBe(404);
      expect((await publicCall(ctx, 'POST', '/api/password-reset/', { company_id: admin.company.id, email: admin.company.admin.email })).statusCode).toBe(202);
    });
  });
});
