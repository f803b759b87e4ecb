import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { HOME_PATH, LOCALE_TAGS, formatDateOnly, formatInstant, isLanguage, t, type Language, type NotificationType, type Role } from '@siteboard/shared';
import { type Db, type DbOrTx, enqueueMails } from '../../platform';
import { renderMail } from '../../lib/mail-layout';
import { notificationText, textFor } from '../notifications/notifications.rules';
import { findDigestRecipients, findDigestTasks, findImmediateMails, findUnreadNotifications, isActiveUser, turnOffEmailNotifications, type DigestTask } from './email.queries';

export interface DigestOptions {
  now: Date;
  localHour: number;
  publicUrl: string;
  unsubscribeKey: Buffer;
  /** People read per statement (DIGEST_BATCH unless set; tests make pages small). */
  batch?: number;
}

/** The key behind one-click unsubscribe links, derived from the server's secret. */
export const unsubscribeKey = (serverSecret: string) => Buffer.from(hkdfSync('sha256', serverSecret, 'siteboard', 'unsubscribe links', 32));

const signature = (key: Buffer, userId: number) => createHmac('sha256', key).update(`unsubscribe:${userId}`).digest('base64url');

/** `<user id>.<HMAC>`: the only secret in the link, and it can do one thing, turn that user's mails off. */
export const unsubscribeToken = (key: Buffer, userId: number) => `${userId}.${signature(key, userId)}`;

export const unsubscribeLink = (publicUrl: string, key: Buffer, userId: number) => `${publicUrl}/api/email/unsubscribe/?token=${unsubscribeToken(key, userId)}`;

/** The user a link of ours names; undefined for a link that is not one of ours. */
function signedUserId(key: Buffer, token: string): number | undefined {
  const [id, given] = token.split('.');
  const userId = Number(id);
  if (!Number.isInteger(userId) || userId <= 0 || !given) return undefined;
  const expected = Buffer.from(signature(key, userId));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? userId : undefined;
}

/** Whether a link is one of ours and its user still active: asked before the form posted with it is read. */
export async function linkNamesSomeone(db: DbOrTx, key: Buffer, token: string): Promise<boolean> {
  const userId = signedUserId(key, token);
  return userId !== undefined && isActiveUser(db, userId);
}

/** Turns off the mails of the link's user; false for a link that is not one of ours, or whose user has left. */
export async function unsubscribe(db: Db, key: Buffer, token: string): Promise<boolean> {
  const userId = signedUserId(key, token);
  return userId !== undefined && turnOffEmailNotifications(db, userId);
}

const DIGEST_BATCH = 500;

const taskLink = (publicUrl: string, role: Role, subtaskId: number) => `${publicUrl}${HOME_PATH[role]}?subtask=${subtaskId}`;

/**
 * The daily digests due now: for each user who takes them and for whom it is `localHour` in their
 * zone, what is due today, what is overdue and their unread notifications, in their language. A
 * user with nothing gets nothing; a second run the same local day queues nothing (the mail's
 * dedupe key is the user and their date). Answers how many had something to say.
 */
export async function runDigests(db: Db, options: DigestOptions): Promise<number> {
  let queued = 0;
  // Page after page: a company of thousands in one zone is served in one run, not its first page every run.
  const batch = options.batch ?? DIGEST_BATCH;
  for (let afterId = 0, page = batch; page === batch; ) {
    const recipients = await findDigestRecipients(db, options.now, options.localHour, batch, afterId);
    page = recipients.length;
    afterId = recipients.at(-1)?.id ?? afterId;
    queued += await queueDigests(db, options, recipients);
  }
  return queued;
}

/** A page of readers' digests in three statements, whatever its size: their tasks, their unread notifications, the mails. */
async function queueDigests(db: Db, options: DigestOptions, recipients: Awaited<ReturnType<typeof findDigestRecipients>>): Promise<number> {
  const [allTasks, allUnread] = await Promise.all([findDigestTasks(db, recipients), findUnreadNotifications(db, recipients)]);
  const byReader = <Row extends { userId: number }>(rows: Row[]) => {
    const grouped = new Map<number, Row[]>();
    for (const row of rows) {
      const group = grouped.get(row.userId);
      if (group) group.push(row);
      else grouped.set(row.userId, [row]);
    }
    return grouped;
  };
  const tasksOf = byReader(allTasks);
  const unreadOf = byReader(allUnread);
  const mails: Parameters<typeof enqueueMails>[1] = [];
  for (const user of recipients) {
    const language: Language = isLanguage(user.language) ? user.language : 'en';
    const tasks = tasksOf.get(user.id) ?? [];
    const unread = unreadOf.get(user.id) ?? [];
    if (tasks.length === 0 && unread.length === 0) continue;
    const item = (task: DigestTask) => ({
      text: t(language, '{task}, due {due}', { task: t(language, "'{task}' ({project})", { task: task.name, project: task.project }), due: formatDateOnly(task.due, language) }),
      url: taskLink(options.publicUrl, user.role, task.id),
    });
    const dueToday = tasks.filter((task) => task.due === user.today).map(item);
    const overdue = tasks.filter((task) => task.due < user.today).map(item);
    const notifications = unread.map((row) => ({
      text: textFor(row, language),
      url: row.subtaskId ? taskLink(options.publicUrl, user.role, row.subtaskId) : `${options.publicUrl}${HOME_PATH[user.role]}`,
    }));
    const unsubscribeUrl = unsubscribeLink(options.publicUrl, options.unsubscribeKey, user.id);
    const rendered = renderMail({
      language,
      subject: t(language, 'Your day on SiteBoard: {date}', { date: formatDateOnly(user.today, language) }),
      greeting: user.fullName ? t(language, 'Hello {name},', { name: user.fullName }) : t(language, 'Hello,'),
      paragraphs: [t(language, 'Here is what needs you today.')],
      sections: [
        { heading: t(language, 'Due today'), items: dueToday },
        { heading: t(language, 'Overdue'), items: overdue },
        { heading: t(language, 'Unread notifications'), items: notifications },
      ].filter((section) => section.items.length > 0),
      notes: [t(language, 'SiteBoard sent this e-mail on behalf of {company}.', { company: user.companyName })],
      unsubscribe: { text: t(language, 'You get this summary at the start of each day with something to tell. Turn it off:'), label: t(language, 'Unsubscribe'), url: unsubscribeUrl },
    });
    mails.push({ mail: { kind: 'digest', to: { name: user.fullName, address: user.email }, unsubscribeUrl, ...rendered }, companyId: user.companyId, dedupeKey: `digest:${user.id}:${user.today}` });
  }
  await enqueueMails(db, mails);
  return mails.length;
}

/** A subject stays on one line of a mail list. */
const SUBJECT_MAX = 150;

/**
 * The mails of new notifications for those who take each as it happens (decision record 079):
 * one per recipient, in their language and zone, naming the actor by their name, linking to the
 * task, with one-click unsubscribe. Two statements whatever the fan-out; a mail already queued
 * for a recipient row (a job run twice) is not queued again. Answers how many were queued.
 */
export async function queueImmediateMails(db: DbOrTx, options: { publicUrl: string; unsubscribeKey: Buffer }, notificationIds: number[]): Promise<number> {
  const rows = await findImmediateMails(db, notificationIds);
  return enqueueMails(
    db,
    rows.map((row) => {
      const language: Language = isLanguage(row.language) ? row.language : 'en';
      const text = row.params ? notificationText(row.type as NotificationType, row.actorName ? { ...row.params, actor: row.actorName } : row.params, language) : row.message;
      const url = row.subtaskId ? taskLink(options.publicUrl, row.role, row.subtaskId) : `${options.publicUrl}${HOME_PATH[row.role]}`;
      const unsubscribeUrl = unsubscribeLink(options.publicUrl, options.unsubscribeKey, row.userId);
      const subject = t(language, 'New on SiteBoard: {text}', { text });
      const rendered = renderMail({
        language,
        subject: subject.length > SUBJECT_MAX ? `${subject.slice(0, SUBJECT_MAX - 1)}…` : subject,
        greeting: row.fullName ? t(language, 'Hello {name},', { name: row.fullName }) : t(language, 'Hello,'),
        paragraphs: [text],
        action: { label: row.subtaskId ? t(language, 'Open the task') : 'SiteBoard', url },
        notes: [t(language, 'On {time}, your time.', { time: formatInstant(row.createdAt, row.timezone, LOCALE_TAGS[language], 'dateTime', null) }), t(language, 'SiteBoard sent this e-mail on behalf of {company}.', { company: row.companyName })],
        unsubscribe: { text: t(language, 'You get an e-mail for each notification. Turn them off:'), label: t(language, 'Unsubscribe'), url: unsubscribeUrl },
      });
      return { mail: { kind: 'notification', to: { name: row.fullName, address: row.email }, unsubscribeUrl, ...rendered }, companyId: row.companyId, dedupeKey: `notification:${row.recipientId}` };
    }),
  );
}
