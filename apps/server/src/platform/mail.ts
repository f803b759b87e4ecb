import { randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { jobs } from '../schema/jobs';
import type { DbOrTx } from './database/types';
import { enqueueJob, enqueueJobs, failedForGood, PermanentJobError } from './jobs';

/** The job queue every e-mail goes through (decision record 075). */
export const MAIL_QUEUE = 'mail';
/** A mail job's work was done once the SMTP server's acceptance is recorded on it, whatever became of the job (record 114). */
const MAIL_ACCEPTED = sql`${jobs.checkpoint}->>'accepted_at' is not null`;
/** About two and a half hours of retries (2, 4, … 2,048 s, then hourly) before a mail is given up. */
const MAIL_MAX_ATTEMPTS = 13;

export interface MailSettings {
  /** `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465` (implicit TLS). */
  smtpUrl: string;
  /** The From header: `SiteBoard <noreply@example.com>`. */
  from: string;
  /** Signs every mail when set (nodemailer's DKIM). */
  dkim?: { domainName: string; keySelector: string; privateKey: string };
}

/** A mail as it waits in the outbox: rendered for its one recipient, in their language. */
export interface OutgoingMail {
  /** What caused it (invitation, password_reset, digest, notification): admins see it beside a failure. */
  kind: string;
  to: { name: string | null; address: string };
  subject: string;
  text: string;
  html: string;
  /** One-click unsubscribe (RFC 8058) for mails a person may turn off. */
  unsubscribeUrl?: string;
}

/** A mail job's checkpoint: when the SMTP server accepted the mail, and what it answered. */
interface MailAcceptance {
  accepted_at: string;
  message_id: string;
  response: string;
}

interface QueuedMail extends OutgoingMail {
  /** Chosen when queued: the same on every attempt, so a retried mail is recognisably the same mail. */
  id: string;
  /** When the mail was written (its Date header), not when an attempt reached the server. */
  date: string;
}

/**
 * Puts a mail in the outbox in the caller's transaction: it is sent if and only if its cause
 * commits. `dedupeKey` makes a second mail for the same thing (a digest for the same day) none.
 */
export function enqueueMail(db: DbOrTx, mail: OutgoingMail, options: { companyId: number | null; dedupeKey?: string }): Promise<number> {
  const queued: QueuedMail = { ...mail, id: randomUUID(), date: new Date().toISOString() };
  return enqueueJob(db, MAIL_QUEUE, queued, { companyId: options.companyId, dedupeKey: options.dedupeKey, maxAttempts: MAIL_MAX_ATTEMPTS });
}

/** Many mails in one statement (each notification of a fan-out to each who takes it at once); a mail whose dedupe key exists is skipped. */
export function enqueueMails(db: DbOrTx, mails: { mail: OutgoingMail; companyId: number | null; dedupeKey: string }[]): Promise<number> {
  const date = new Date().toISOString();
  return enqueueJobs(
    db,
    MAIL_QUEUE,
    mails.map(({ mail, companyId, dedupeKey }) => ({ payload: { ...mail, id: randomUUID(), date } satisfies QueuedMail, companyId, dedupeKey })),
    { maxAttempts: MAIL_MAX_ATTEMPTS },
  );
}

export interface FailedMail {
  id: number;
  kind: string;
  to: string;
  to_name: string | null;
  subject: string;
  error: string;
  attempts: number;
  created_at: string;
  failed_at: string;
}

/**
 * The company's mails that were given up (a permanent refusal, or every retry failed), newest first.
 * A mail job that failed with its SMTP acceptance recorded (its completion refused past the bound,
 * decision record 114) is not one: the mail went, so it is not listed.
 */
export async function listFailedMails(db: DbOrTx, companyId: number, limit = 100): Promise<FailedMail[]> {
  const rows = await db
    .select({
      id: jobs.id,
      kind: sql<string>`${jobs.payload}->>'kind'`,
      to: sql<string>`${jobs.payload}->'to'->>'address'`,
      toName: sql<string | null>`${jobs.payload}->'to'->>'name'`,
      subject: sql<string>`${jobs.payload}->>'subject'`,
      error: sql<string>`coalesce(${jobs.lastError}, '')`,
      attempts: jobs.attempts,
      createdAt: jobs.createdAt,
      finishedAt: jobs.finishedAt,
    })
    .from(jobs)
    .where(and(eq(jobs.queue, MAIL_QUEUE), eq(jobs.companyId, companyId), failedForGood(MAIL_ACCEPTED)))
    .orderBy(desc(jobs.finishedAt), desc(jobs.id))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    to: row.to,
    to_name: row.toName,
    subject: row.subject,
    error: row.error,
    attempts: row.attempts,
    created_at: new Date(row.createdAt).toISOString(),
    failed_at: new Date(row.finishedAt ?? row.createdAt).toISOString(),
  }));
}

/** The part after the @ of an address, for Message-IDs: `SiteBoard <noreply@example.com>` → example.com. */
export function mailDomain(from: string): string {
  const match = /@([^>\s]+)>?\s*$/.exec(from);
  return match?.[1] ?? 'siteboard.invalid';
}

/**
 * An SMTP refusal in the 5xx range is permanent (no such mailbox, message refused): retrying
 * cannot mend it. Everything else (4xx, a refused or dropped connection, a timeout) is retried.
 */
export function isPermanentRefusal(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/**
 * The SMTP transport, made with the first mail: nodemailer (~0.2 s, 15 MB resident) loads then,
 * not at the start of every server, most of whose life sends none.
 */
async function createTransport(settings: MailSettings): Promise<Transporter<SMTPTransport.SentMessageInfo>> {
  const { default: nodemailer } = await import('nodemailer');
  const options: SMTPTransport.Options = {
    url: settings.smtpUrl,
    // A dead server must not hold a job for nodemailer's default two minutes.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
    ...(settings.dkim ? { dkim: settings.dkim } : {}),
  } as SMTPTransport.Options;
  return nodemailer.createTransport(options);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether this server can send e-mail (SMTP_URL set): screens hide what needs it when not. */
    mail: { configured: boolean };
  }
}

/**
 * E-mail: with settings, defines the `mail` queue, whose runs send one outbox mail each through
 * SMTP (decision record 075). The job runner's lease makes each mail go out from one instance;
 * its Message-ID is fixed when it is queued, and the server's acceptance is recorded on its job the
 * moment it comes, so a run after a crash does not send it again (decision record 114). Without settings nothing is sent and `mail.configured`
 * is false.
 */
export const mailPlugin = fp(
  async (app: FastifyInstance, options: { settings?: MailSettings }) => {
    const { settings } = options;
    app.decorate('mail', { configured: settings !== undefined });
    if (!settings) return;
    let transport: Promise<Transporter<SMTPTransport.SentMessageInfo>> | undefined;
    const domain = mailDomain(settings.from);
    app.jobs.define<QueuedMail>({
      queue: MAIL_QUEUE,
      concurrency: 2,
      leaseSeconds: 120,
      workDone: MAIL_ACCEPTED,
      async handle(job) {
        const mail = job.payload;
        const messageId = `<${mail.id}@${domain}>`;
        // The SMTP server took it on an earlier run whose job was not marked done (decision record
        // 114): recorded on the job, or kept by the runner of this instance when the database refused it.
        if (job.checkpoint) return;
        let info: SMTPTransport.SentMessageInfo;
        try {
          info = await (await (transport ??= createTransport(settings))).sendMail({
            from: settings.from,
            to: mail.to.name ? { name: mail.to.name, address: mail.to.address } : mail.to.address,
            subject: mail.subject,
            text: mail.text,
            html: mail.html,
            messageId,
            date: new Date(mail.date),
            headers: {
              // RFC 3834: written by a machine; auto-responders stay quiet.
              'Auto-Submitted': 'auto-generated',
              ...(mail.unsubscribeUrl ? { 'List-Unsubscribe': `<${mail.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {}),
            },
          });
        } catch (error) {
          if (isPermanentRefusal(error)) throw new PermanentJobError(error instanceof Error ? error.message : String(error));
          throw error;
        }
        // Recorded before anything else happens: from here on a crash or a failed completion runs the
        // job again, and that run sends nothing. Refused, the runner writes it with the job's
        // completion, on any attempt: the mail went, so the run is never a failed one.
        const acceptance: MailAcceptance = { accepted_at: new Date().toISOString(), message_id: messageId, response: info.response };
        await job.recordCheckpoint(acceptance);
      },
    });
    app.addHook('onClose', async () => (await transport)?.close());
  },
  { name: 'mail', dependencies: ['jobs'] },
);
