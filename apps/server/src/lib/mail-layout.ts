import { t, type Language } from '@siteboard/shared';

/** One mail's content, every text already in the recipient's language. */
export interface MailContent {
  language: Language;
  subject: string;
  greeting: string;
  paragraphs: string[];
  /** The one thing the mail asks for: a button in HTML, the address on its own line in text. */
  action?: { label: string; url: string };
  /** Lists of linked lines (the digest's due, overdue and unread). */
  sections?: { heading: string; items: { text: string; url: string }[] }[];
  /** Small print: why the mail came, how long a link works. */
  notes: string[];
  /** Turning these mails off, without signing in. */
  unsubscribe?: { text: string; label: string; url: string };
}

export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const FONT = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

/**
 * The HTML and its plain-text twin from the same texts (decision record 077). Table layout and
 * inline styles because mail clients drop style sheets; no images, so nothing is fetched from
 * anywhere when the mail is opened.
 */
export function renderMail(content: MailContent): { subject: string; html: string; text: string } {
  const paragraph = (text: string) => `<p style="margin:0 0 16px;${FONT};font-size:16px;line-height:24px;color:#1f2933">${escapeHtml(text)}</p>`;
  const link = (text: string, url: string) => `<a href="${escapeHtml(url)}" style="color:#1d4ed8">${escapeHtml(text)}</a>`;
  const button = content.action
    ? `<table role="presentation" cellspacing="0" cellpadding="0" style="margin:8px 0 24px"><tr><td style="border-radius:6px;background:#1d4ed8">` +
      `<a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:12px 24px;${FONT};font-size:16px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(content.action.label)}</a>` +
      `</td></tr></table>` +
      `<p style="margin:0 0 16px;${FONT};font-size:13px;line-height:20px;color:#52606d">${escapeHtml(t(content.language, 'If the button does not work, copy this address into your browser:'))}<br><span style="word-break:break-all">${link(content.action.url, content.action.url)}</span></p>`
    : '';
  const sections = (content.sections ?? [])
    .map(
      (section) =>
        `<h2 style="margin:24px 0 8px;${FONT};font-size:17px;color:#1f2933">${escapeHtml(section.heading)}</h2>` +
        `<ul style="margin:0 0 8px;padding-left:20px;${FONT};font-size:15px;line-height:22px;color:#1f2933">${section.items.map((item) => `<li style="margin:0 0 6px">${link(item.text, item.url)}</li>`).join('')}</ul>`,
    )
    .join('');
  // An address in a note (the company's sign-in page) is a link too; a full stop after it is not part of it.
  const withLinks = (note: string) =>
    note
      .split(/(https?:\/\/[^\s]*[^\s.,;:!?)])/)
      .map((part, index) => (index % 2 === 1 ? link(part, part) : escapeHtml(part)))
      .join('');
  const notes = content.notes.map((note) => `<p style="margin:0 0 8px;${FONT};font-size:13px;line-height:20px;color:#52606d">${withLinks(note)}</p>`).join('');
  const unsubscribe = content.unsubscribe
    ? `<p style="margin:0 0 8px;${FONT};font-size:13px;line-height:20px;color:#52606d">${escapeHtml(content.unsubscribe.text)} ${link(content.unsubscribe.label, content.unsubscribe.url)}</p>`
    : '';
  const html =
    `<!DOCTYPE html><html lang="${content.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="color-scheme" content="light"><title>${escapeHtml(content.subject)}</title></head>` +
    `<body style="margin:0;padding:0;background:#f3f4f6">` +
    `<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="background:#f3f4f6"><tr><td align="center" style="padding:24px 12px">` +
    `<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="max-width:560px;background:#ffffff;border-radius:8px"><tr><td style="padding:32px 28px">` +
    `<p style="margin:0 0 24px;${FONT};font-size:14px;font-weight:700;letter-spacing:.08em;color:#1d4ed8">SITEBOARD</p>` +
    paragraph(content.greeting) +
    content.paragraphs.map(paragraph).join('') +
    button +
    sections +
    `<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0 16px">` +
    notes +
    unsubscribe +
    `</td></tr></table></td></tr></table></body></html>`;

  const text = [
    content.greeting,
    '',
    ...content.paragraphs.flatMap((line) => [line, '']),
    // French sets a (non-breaking) space before a colon: "Accepter l'invitation :".
    ...(content.action ? [t(content.language, '{label}:', { label: content.action.label }), content.action.url, ''] : []),
    ...(content.sections ?? []).flatMap((section) => [section.heading, ...section.items.flatMap((item) => [`- ${item.text}`, `  ${item.url}`]), '']),
    '--',
    ...content.notes,
    ...(content.unsubscribe ? [`${content.unsubscribe.text} ${content.unsubscribe.url}`] : []),
    '',
  ].join('\n');
  return { subject: content.subject, html, text };
}
