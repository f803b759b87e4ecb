import type { ParsedMail } from 'mailparser';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { MAIL_QUEUE } from '../../platform';
import { users } from '../../schema/users';
import { describeEachDatabase, type TestContext } from '../../test/build-app';
import { injectAs } from '../../test/factories';
import { sharedMailServer } from '../../test/mail-server';
import { callAs, createTeam, insertWork, type Team } from '../../test/work-factories';
import { updateOwnSettings } from '../users/users.queries';
import { NOTIFICATION_MAIL_QUEUE } from './notifications.queries';
import { runSweeps } from './notifications.service';

const mailServer = await sharedMailServer();
const PUBLIC_URL = 'https://siteboard.example.test';

const header = (mail: ParsedMail, name: string) => {
  const line = mail.headerLines.find((entry) => entry.key === name)?.line ?? '';
  return line.slice(line.indexOf(':') + 1).trim();
};

/** The notification jobs turn into mails, and the mails reach the SMTP server. */
const deliver = async (ctx: TestContext) => {
  await ctx.app.jobs.idle([NOTIFICATION_MAIL_QUEUE]);
  await ctx.app.jobs.idle([MAIL_QUEUE]);
};

const submit = (ctx: TestContext, team: Team, subtaskId: number) => callAs(ctx.app, team.member, { method: 'PATCH', url: `/api/subtasks/${subtaskId}/`, payload: { status: 'pending_approval' } });

describeEachDatabase(
  'a mail for each notification, for those who choose it',
  (ctx) => {
    it('mails a submission to the manager who takes each notification, in their language and zone, naming the actor', async () => {
      const team = await createTeam(ctx.app, { timezone: 'America/Los_Angeles' });
      // The project's manager takes each notification at once, in German, in Kiritimati; the assigner keeps the digest.
      await updateOwnSettings(ctx.app.db, team.company.id, team.manager.id, { language: 'de', timezone: 'Pacific/Kiritimati', emailNotifications: 'immediate' });
      await updateOwnSettings(ctx.app.db, team.company.id, team.otherManager.id, { emailNotifications: 'daily' });
      await ctx.app.db.update(users).set({ fullName: 'Ana Ruiz' }).where(eq(users.id, team.member.id));
      const work = await insertWork(ctx.app.db, team, { assignedById: team.otherManager.id });

      expect((await submit(ctx, team, work.subtaskId)).statusCode).toBe(200);
      await deliver(ctx);

      const [mail, ...more] = await mailServer.waitForMails(team.manager.email);
      expect(more).toEqual([]);
      expect(mail!.subject).toMatch(/^Neu bei SiteBoard: Ana Ruiz hat „.+“ \(.+\) zur Abnahme eingereicht$/);
      expect(mail!.text).toContain('Ana Ruiz');
      expect(mail!.text).not.toContain(team.member.email);
      expect(mail!.html).not.toContain(team.member.email);
      expect(mail!.text).toContain(`${PUBLIC_URL}/manager?subtask=${work.subtaskId}`);
      expect(mail!.text).toContain('Aufgabe öffnen');
      // The time is the manager's own: Kiritimati is UTC+14.
      const kiritimati = new Intl.DateTimeFormat('de', { dateStyle: 'medium', timeZone: 'Pacific/Kiritimati' }).format(new Date());
      // The time says its zone: a mail is read on a device whose clock nobody knows.
      expect(mail!.text).toMatch(new RegExp(`Am ${kiritimati}, \\d\\d:\\d\\d\u00a0GMT\\+14, Ihre Zeit\\.`));
      expect(mail!.html).toContain('<html lang="de">');
      expect(header(mail!, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
      expect(header(mail!, 'list-unsubscribe')).toMatch(new RegExp(`^<${PUBLIC_URL}/api/email/unsubscribe/\\?token=${team.manager.id}\\.[\\w-]+>$`));
      expect(mail!.headers.get('auto-submitted')).toBe('auto-generated');
      expect(mail!.to).toMatchObject({ value: [{ address: team.manager.email }] });

      // The assigner (daily) and the submitter get nothing now.
      expect(await mailServer.mailsTo(team.otherManager.email)).toEqual([]);
      expect(await mailServer.mailsTo(team.member.email)).toEqual([]);
    });

    it('sends nothing to those who chose off or the digest, and nothing more once unsubscribed', async () => {
      const team = await createTeam(ctx.app);
      await updateOwnSettings(ctx.app.db, team.company.id, team.manager.id, { emailNotifications: 'off' });
      const quiet = await insertWork(ctx.app.db, team, { assignedById: team.otherManager.id });
      expect((await submit(ctx, team, quiet.subtaskId)).statusCode).toBe(200);
      await deliver(ctx);
      expect(await mailServer.mailsTo(team.manager.email)).toEqual([]);
      expect(await mailServer.mailsTo(team.otherManager.email)).toEqual([]);

      await updateOwnSettings(ctx.app.db, team.company.id, team.manager.id, { emailNotifications: 'immediate' });
      const first = await insertWork(ctx.app.db, team);
      expect((await submit(ctx, team, first.subtaskId)).statusCode).toBe(200);
      await deliver(ctx);
      const [mail] = await mailServer.waitForMails(team.manager.email);
      expect(mail!.subject).toMatch(/^New on SiteBoard: .+ sent '.+' \(.+\) for approval$/);

      const url = new URL(header(mail!, 'list-unsubscribe').slice(1, -1));
      const done = await ctx.app.inject({ method: 'POST', url: url.pathname + url.search, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
      expect(done.statusCode, done.body).toBe(200);
      expect((await injectAs(ctx.app, team.manager.access, { method: 'GET', url: '/api/profile/' })).json()).toMatchObject({ email_notifications: 'off' });

      const after = await insertWork(ctx.app.db, team);
      expect((await submit(ctx, team, after.subtaskId)).statusCode).toBe(200);
      await deliver(ctx);
      expect(await mailServer.mailsTo(team.manager.email)).toHaveLength(1);
    });

    it('mails the fan-out of a sweep with two statements, however many notifications it made', async () => {
      const team = await createTeam(ctx.app);
      await updateOwnSettings(ctx.app.db, team.company.id, team.manager.id, { emailNotifications: 'immediate' });
      const works = await Promise.all([1, 2, 3, 4, 5].map(() => insertWork(ctx.app.db, team, { dueDate: '2026-01-10' })));
      const swept = await runSweeps(ctx.app.db, { now: new Date('2026-02-01T12:00:00Z'), approvalDelayHours: 48 });
      expect(swept).toMatchObject({ overdue: works.length });

      ctx.queries.length = 0;
      await ctx.app.jobs.idle([NOTIFICATION_MAIL_QUEUE]);
      // One read of every recipient's choice and one insert of every mail, not one of each per notification.
      expect(ctx.queries.filter((sql) => sql.includes('email_notifications'))).toHaveLength(1);
      expect(ctx.queries.filter((sql) => sql.includes('json_to_recordset') && sql.includes('insert into "jobs"'))).toHaveLength(1);
      await ctx.app.jobs.idle([MAIL_QUEUE]);
      const mails = await mailServer.waitForMails(team.manager.email, works.length);
      expect(mails.map((mail) => mail.text)).toEqual(works.map(() => expect.stringMatching(/is overdue: it was due 2026-01-10/)));
    });
  },
  { mail: { smtpUrl: mailServer.url, from: 'SiteBoard <noreply@siteboard.example.test>' }, publicUrl: PUBLIC_URL, jobPollMs: 200 },
);
