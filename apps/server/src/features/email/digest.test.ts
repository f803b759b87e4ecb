import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { expect, it } from 'vitest';
import { MAIL_QUEUE } from '../../platform';
import { users } from '../../schema/users';
import { describeEachDatabase, TEST_JWT_SECRET, type TestContext } from '../../test/build-app';
import { createUser, injectAs } from '../../test/factories';
import { sharedMailServer } from '../../test/mail-server';
import { createTeam, insertMajorTask, insertProject, insertSubtask, type Team } from '../../test/work-factories';
import { updateOwnSettings } from '../users/users.queries';
import { runDigests, unsubscribeKey, unsubscribeToken } from './email.service';

const mailServer = await sharedMailServer();
const PUBLIC_URL = 'https://siteboard.example.test';
const digestOptions = (now: string) => ({ now: new Date(now), localHour: 7, publicUrl: PUBLIC_URL, unsubscribeKey: unsubscribeKey(TEST_JWT_SECRET) });

// 07:30 on 2 December in Kiritimati (UTC+14) is 09:30 on 1 December in Los Angeles (UTC−8) …
const KIRITIMATI_MORNING = '2026-12-01T17:30:00Z';
// … and 07:30 on 2 December in Los Angeles is 05:30 on 3 December in Kiritimati.
const LOS_ANGELES_MORNING = '2026-12-02T15:30:00Z';

async function teamWithWork(ctx: TestContext, timezone: string, names: { today: string; overdue?: string }) {
  const team = await createTeam(ctx.app, { timezone });
  const project = await insertProject(ctx.app.db, team.company.id, { managerId: team.manager.id, name: `Depot ${timezone}` });
  const majorTask = await insertMajorTask(ctx.app.db, team.company.id, project.id, { createdById: team.manager.id });
  const today = await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: majorTask.id, assignedToId: team.member.id, dueDate: '2026-12-02', name: names.today });
  if (names.overdue) await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: majorTask.id, assignedToId: team.member.id, dueDate: '2026-11-20', name: names.overdue });
  return { team, todayId: today.id };
}

/** A header as it was sent (mailparser folds the List-* headers into one object). */
const header = (mail: ParsedMail, name: string) => {
  const line = mail.headerLines.find((entry) => entry.key === name)?.line ?? '';
  return line.slice(line.indexOf(':') + 1).trim();
};

const profile = (ctx: TestContext, team: Team) => injectAs(ctx.app, team.member.access, { method: 'GET', url: '/api/profile/' });

describeEachDatabase(
  'the daily digest',
  (ctx) => {
    it('reaches everyone due in one run, page after page, and nobody twice', async () => {
      const team = await createTeam(ctx.app, { timezone: 'Asia/Kathmandu' });
      const project = await insertProject(ctx.app.db, team.company.id, { managerId: team.manager.id });
      const majorTask = await insertMajorTask(ctx.app.db, team.company.id, project.id, { createdById: team.manager.id });
      const crew = [team.member, ...(await Promise.all([1, 2, 3, 4].map(() => createUser(ctx.app.db, team.company.id, 'team_member', { managerId: team.manager.id }))))];
      for (const person of crew) await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: majorTask.id, assignedToId: person.id, dueDate: '2026-12-02' });
      // 07:30 on 2 December in Kathmandu (UTC+5:45); pages of two people.
      const morning = { ...digestOptions('2026-12-02T01:45:00Z'), batch: 2 };
      expect(await runDigests(ctx.app.db, morning)).toBe(crew.length);
      expect(await runDigests(ctx.app.db, morning)).toBe(0);
      for (const person of crew) expect(await mailServer.waitForMails(person.email)).toHaveLength(1);
    });

    it('writes a page of digests in the same few statements for two people as for six', async () => {
      const statementsFor = async (people: number, timezone: string, now: string) => {
        const team = await createTeam(ctx.app, { timezone });
        const project = await insertProject(ctx.app.db, team.company.id, { managerId: team.manager.id });
        const majorTask = await insertMajorTask(ctx.app.db, team.company.id, project.id, { createdById: team.manager.id });
        const crew = [team.member, ...(await Promise.all(Array.from({ length: people - 1 }, () => createUser(ctx.app.db, team.company.id, 'team_member', { managerId: team.manager.id }))))];
        for (const person of crew) await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: majorTask.id, assignedToId: person.id, dueDate: '2026-12-10' });
        ctx.queries.length = 0;
        expect(await runDigests(ctx.app.db, digestOptions(now))).toBeGreaterThanOrEqual(people);
        // The digest's own statements: the job runner, claiming the mails as they are queued, runs beside it.
        const statements = ctx.queries.filter((query) => !/^\s*(update "jobs"|with next as)/.test(String(query))).length;
        for (const person of crew) expect(await mailServer.waitForMails(person.email)).toHaveLength(1);
        return statements;
      };
      // 07:30 on 10 December in Eucla (UTC+8:45), then in Chatham (UTC+13:45).
      expect(await statementsFor(6, 'Australia/Eucla', '2026-12-09T22:45:00Z')).toBe(await statementsFor(2, 'Pacific/Chatham', '2026-12-09T17:45:00Z'));
    });

    it("goes at 07:00 in each person's own zone and language, once a day, only to those with something to read", async () => {
      const kiritimati = await teamWithWork(ctx, 'Pacific/Kiritimati', { today: 'Fundament gießen', overdue: 'Bewehrung prüfen' });
      await updateOwnSettings(ctx.app.db, kiritimati.team.company.id, kiritimati.team.member.id, { language: 'de' });
      const losAngeles = await teamWithWork(ctx, 'America/Los_Angeles', { today: 'Pour the slab' });

      expect(await runDigests(ctx.app.db, digestOptions(KIRITIMATI_MORNING))).toBe(1);
      const [german] = await mailServer.waitForMails(kiritimati.team.member.email);
      expect(german!.subject).toBe('Ihr Tag bei SiteBoard: 02.12.2026');
      expect(german!.text).toContain('Heute fällig');
      expect(german!.text).toContain('„Fundament gießen“');
      expect(german!.text).toContain('Überfällig');
      expect(german!.text).toContain('Bewehrung prüfen');
      expect(german!.text).toContain(`${PUBLIC_URL}/team-member?subtask=${kiritimati.todayId}`);
      expect(german!.html).toContain('<html lang="de">');
      expect(header(german!, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
      expect(header(german!, 'list-unsubscribe')).toMatch(new RegExp(`^<${PUBLIC_URL}/api/email/unsubscribe/\\?token=${kiritimati.team.member.id}\\.[\\w-]+>$`));
      expect(german!.headers.get('auto-submitted')).toBe('auto-generated');

      // The same morning again: nothing new. Los Angeles is still on yesterday.
      await runDigests(ctx.app.db, digestOptions(KIRITIMATI_MORNING));
      await ctx.app.jobs.idle([MAIL_QUEUE]);
      expect(await mailServer.mailsTo(kiritimati.team.member.email)).toHaveLength(1);
      expect(await mailServer.mailsTo(losAngeles.team.member.email)).toEqual([]);
      // Nobody else in either company has anything due: no empty digests.
      expect(await mailServer.mailsTo(kiritimati.team.otherMember.email)).toEqual([]);

      expect(await runDigests(ctx.app.db, digestOptions(LOS_ANGELES_MORNING))).toBe(1);
      const [english] = await mailServer.waitForMails(losAngeles.team.member.email);
      expect(english!.subject).toBe('Your day on SiteBoard: 2026-12-02');
      expect(english!.text).toContain('Due today');
      expect(english!.text).toContain("'Pour the slab' (Depot America/Los_Angeles)");
      expect(english!.text).not.toContain('Overdue');
      expect(await mailServer.mailsTo(kiritimati.team.member.email)).toHaveLength(1);
    });

    it('unsubscribes in one click without signing in, and sends no digest after', async () => {
      const { team } = await teamWithWork(ctx, 'Pacific/Kiritimati', { today: 'Formwork' });
      expect((await profile(ctx, team)).json()).toMatchObject({ email_notifications: 'daily' });
      await runDigests(ctx.app.db, digestOptions(KIRITIMATI_MORNING));
      const [mail] = await mailServer.waitForMails(team.member.email);
      const url = new URL(header(mail!, 'list-unsubscribe').slice(1, -1));

      const refused = await ctx.app.inject({ method: 'POST', url: `${url.pathname}?token=${team.member.id}.forged`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
      expect(refused.statusCode).toBe(404);
      // Opening the link (a GET, as a link scanner does) changes nothing.
      const page = await ctx.app.inject({ method: 'GET', url: url.pathname + url.search, headers: { 'accept-language': 'es' } });
      expect(page.statusCode).toBe(200);
      expect((await profile(ctx, team)).json()).toMatchObject({ email_notifications: 'daily' });
      // Styled by a block its own policy allows (the app's refuses inline styles): no style attribute a browser would drop.
      const style = /<style>([^<]*)<\/style>/.exec(page.body)![1]!;
      expect(page.headers['content-security-policy']).toContain(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`);
      expect(page.body).not.toContain('style="');
      expect(page.body).toContain('<button type="submit">Cancelar la suscripción</button>');

      // Its button posts as a browser does: the answer is a page in the reader's language, not JSON.
      const done = await ctx.app.inject({
        method: 'POST',
        url: url.pathname + url.search,
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html,application/xhtml+xml', 'accept-language': 'es' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(done.statusCode, done.body).toBe(200);
      expect(done.headers['content-type']).toMatch(/^text\/html/);
      expect(done.body).toContain('<p>Ya no recibirás');
      expect((await profile(ctx, team)).json()).toMatchObject({ email_notifications: 'off' });
      // A mail client's one-click post still gets its JSON.
      const again = await ctx.app.inject({ method: 'POST', url: url.pathname + url.search, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
      expect(again.json()).toMatchObject({ detail: 'You will get no more notification e-mails. Turn them on again in your profile.' });

      await runDigests(ctx.app.db, digestOptions('2026-12-02T17:30:00Z'));
      await ctx.app.jobs.idle([MAIL_QUEUE]);
      expect(await mailServer.mailsTo(team.member.email)).toHaveLength(1);
    });

    it('reads the link before the form posted with it: a link that names no one is 404 whatever the form', async () => {
      const team = await createTeam(ctx.app);
      const leaver = await createUser(ctx.app.db, team.company.id, 'team_member', { managerId: team.manager.id });
      await ctx.app.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, leaver.id));
      const key = unsubscribeKey(TEST_JWT_SECRET);
      const post = (token: string, payload: string, headers: Record<string, string> = {}) =>
        ctx.app.inject({ method: 'POST', url: `/api/email/unsubscribe/?token=${encodeURIComponent(token)}`, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload });

      for (const token of [`${team.member.id}.forged`, unsubscribeToken(key, leaver.id)]) {
        for (const form of ['List-Unsubscribe=Two-Clicks', 'something=else']) {
          const refused = await post(token, form);
          expect(refused.statusCode, `${token} ${form}`).toBe(404);
          expect(refused.json()).toEqual({ detail: 'Not found.' });
        }
        const broken = await ctx.app.inject({ method: 'POST', url: `/api/email/unsubscribe/?token=${token}`, headers: { 'content-type': 'application/json' }, payload: '{"List-' });
        expect(broken.statusCode).toBe(404);
        // A browser is told on a page, in its language.
        const page = await post(token, 'List-Unsubscribe=Two-Clicks', { accept: 'text/html', 'accept-language': 'de' });
        expect(page.statusCode).toBe(404);
        expect(page.headers['content-type']).toMatch(/^text\/html/);
      }

      // A link that names someone has its form checked, and nothing changes for a wrong one.
      const wrongForm = await post(unsubscribeToken(key, team.member.id), 'List-Unsubscribe=Two-Clicks');
      expect(wrongForm.statusCode).toBe(400);
      expect((await profile(ctx, team)).json()).toMatchObject({ email_notifications: 'daily' });
      // A malformed link is validation's 400.
      expect((await ctx.app.inject({ method: 'POST', url: '/api/email/unsubscribe/', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' })).statusCode).toBe(400);
    });

    it('lets a person choose their notification e-mails in their profile', async () => {
      const team = await createTeam(ctx.app);
      const patch = (payload: object) => injectAs(ctx.app, team.member.access, { method: 'PATCH', url: '/api/profile/', payload });

      expect((await patch({ email_notifications: 'immediate' })).json()).toMatchObject({ email_notifications: 'immediate' });
      expect((await profile(ctx, team)).json()).toMatchObject({ email_notifications: 'immediate' });
      const refused = await patch({ email_notifications: 'weekly' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors).toEqual({ email_notifications: ['Choose off, daily or immediate.'] });
    });
  },
  { mail: { smtpUrl: mailServer.url, from: 'SiteBoard <noreply@siteboard.example.test>' }, publicUrl: PUBLIC_URL, jobPollMs: 200 },
);
