import { t, type Language, type Role } from '@siteboard/shared';
import { AS_ROLE } from '../../lib/labels';
import { renderMail } from '../../lib/mail-layout';

/** The web app's page an invitation's link opens; the token is the only secret in it. */
export const invitationLink = (publicUrl: string, token: string) => `${publicUrl}/accept-invitation?token=${encodeURIComponent(token)}`;
/** The web app's page a forgotten password's link opens. */
export const passwordResetLink = (publicUrl: string, token: string) => `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;

/** A company's sign-in page: e-mail and password, no company password (that is the way in for someone who has no account yet). */
export const signInLink = (publicUrl: string, companyId: number) => `${publicUrl}/login?companyId=${companyId}`;

const greeting = (language: Language, name: string | null) => (name ? t(language, 'Hello {name},', { name }) : t(language, 'Hello,'));

/** The invitation, in the company's language: who invites (an admin without a name is not named), to which company, in which role. */
export function invitationMail(input: { language: Language; company: string; inviter: string | null; fullName: string | null; role: Role; url: string; signIn: string; hours: number }) {
  const { language } = input;
  const asRole = t(language, AS_ROLE[input.role]);
  return renderMail({
    language,
    subject: t(language, 'You are invited to {company} on SiteBoard', { company: input.company }),
    greeting: greeting(language, input.fullName),
    paragraphs: [
      input.inviter
        ? t(language, '{inviter} invited you to join {company} on SiteBoard {asRole}.', { inviter: input.inviter, company: input.company, asRole })
        : t(language, 'You are invited to join {company} on SiteBoard {asRole}.', { company: input.company, asRole }),
    ],
    action: { label: t(language, 'Accept the invitation'), url: input.url },
    notes: [
      t(language, 'The link works once, for {hours} hours. If you did not expect this invitation, ignore this e-mail.', { hours: input.hours }),
      // The invitation is the only way in they are given: after it, on another phone or once signed out, this page is.
      t(language, 'After that, sign in on any device at {url} with your e-mail and the password you chose. Keep this address.', { url: input.signIn }),
      t(language, 'SiteBoard sent this e-mail on behalf of {company}.', { company: input.company }),
    ],
  });
}

/** The forgotten password's link, in the user's language. */
export function passwordResetMail(input: { language: Language; company: string; fullName: string | null; url: string }) {
  const { language } = input;
  return renderMail({
    language,
    subject: t(language, 'Reset your SiteBoard password'),
    greeting: greeting(language, input.fullName),
    paragraphs: [t(language, 'Someone asked to reset the password of your SiteBoard account at {company}.', { company: input.company })],
    action: { label: t(language, 'Choose a new password'), url: input.url },
    notes: [t(language, 'The link works once, for one hour. If you did not ask for it, ignore this e-mail: your password stays as it is.'), t(language, 'SiteBoard sent this e-mail on behalf of {company}.', { company: input.company })],
  });
}
