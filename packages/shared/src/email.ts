import { z } from 'zod';
import { emailField, positiveId, text } from './common';
import { newPassword } from './auth';
import { LANGUAGES } from './messages';
import { languageSchema } from './language-field';
import { ASSIGNABLE_ROLES } from './roles';
import { MANAGER_REQUIRED, companyRef, fullName, userSchema } from './users';

/** Whether this server sends e-mail: screens that need it (invitations, forgotten passwords) show only when it does. */
export const emailStatusSchema = z.object({ configured: z.boolean() });
export type EmailStatus = z.infer<typeof emailStatusSchema>;

/** Where an invitation's latest mail is: in the outbox (or retried), accepted by the mail server, or given up. */
export const INVITATION_DELIVERY_STATES = ['sending', 'sent', 'undelivered'] as const;
export type InvitationDeliveryState = (typeof INVITATION_DELIVERY_STATES)[number];

/** How long an invitation's link works. */
export const INVITATION_HOURS = 72;
/** How long a forgotten password's link works. */
export const PASSWORD_RESET_HOURS = 1;

export const EMAIL_NOT_CONFIGURED = 'E-mail is not configured on this server.';
export const INVITATION_GONE = 'This invitation link was already used, revoked or has expired. Ask your administrator for a new one.';
export const RESET_LINK_GONE = 'This password reset link was already used or has expired. Ask for a new one.';
export const INVITED_EMAIL_TAKEN = 'A user with this email already exists in your company.';
export const TOKEN_REQUIRED = 'The link is incomplete: open it again from the e-mail.';

export const createInvitationInput = z
  .object({
    email: emailField,
    role: z.enum(ASSIGNABLE_ROLES, { error: 'Role must be manager or team_member.' }),
    full_name: fullName,
    manager_id: positiveId('Select a manager.').nullish(),
    /** The invited person's: their mail is written in it and they start in it; left out, the inviter's own. */
    language: languageSchema.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.role === 'team_member' && !input.manager_id) ctx.addIssue({ code: 'custom', path: ['manager_id'], message: MANAGER_REQUIRED });
  });
export type CreateInvitationInput = z.input<typeof createInvitationInput>;

export const invitationSchema = z.object({
  id: z.number(),
  email: z.string(),
  role: z.enum(ASSIGNABLE_ROLES),
  full_name: z.string().nullable(),
  manager_id: z.number().nullable(),
  expires_at: z.string(),
  created_at: z.string(),
  /** The language its mail is written in and the person starts in (invited before it was asked: the company's). */
  language: z.enum(LANGUAGES),
  /** Its latest mail was given up (refused for good, or every retry failed): the SMTP server's reason, as the failed-mail list shows it, and when. */
  undelivered: z.object({ error: z.string(), failed_at: z.string() }).nullable(),
  /**
   * What the server knows of its latest mail (decision record 127): `sending` while it waits in the
   * outbox or is retried (`error`: the last attempt's reason, `at`: when it is tried next, once one
   * failed); `sent` once the mail server (SMTP_URL) accepted it (`at`): a bounce it reports later goes to
   * the sender's address, not to SiteBoard; `undelivered` when given up (`at`, `error`, as `undelivered` says). Null: its mail's
   * record is no longer kept (done mails after a week), or it was made before mails were recorded.
   */
  delivery: z
    .object({ state: z.enum(INVITATION_DELIVERY_STATES), at: z.string().nullable(), error: z.string().nullable() })
    .nullable(),
});
export type Invitation = z.infer<typeof invitationSchema>;

const token = text({ error: TOKEN_REQUIRED }).min(1, TOKEN_REQUIRED).max(200, TOKEN_REQUIRED);

export const invitationTokenQuery = z.object({ token });

/** What the accept page shows before the person sets their password. */
export const invitationPreviewSchema = z.object({ email: z.string(), company: companyRef, role: z.enum(ASSIGNABLE_ROLES), full_name: z.string().nullable() });
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

export const acceptInvitationInput = z.object({ token, password: newPassword, full_name: fullName });
export type AcceptInvitationInput = z.input<typeof acceptInvitationInput>;

/** The new user, signed in. */
export const acceptInvitationAnswer = z.object({ access: z.string(), refresh: z.string(), user: userSchema });
export type AcceptInvitationAnswer = z.infer<typeof acceptInvitationAnswer>;

export const passwordResetInput = z.object({ company_id: positiveId('Company is required.'), email: emailField });
export type PasswordResetInput = z.input<typeof passwordResetInput>;

export const passwordResetConfirmInput = z.object({ token, password: newPassword });
export type PasswordResetConfirmInput = z.input<typeof passwordResetConfirmInput>;

/** Accepted answers carry no detail: whether an account exists is not told. */
export const acceptedAnswer = z.object({ detail: z.string() });

export const EMAIL_NOTIFICATIONS = ['off', 'daily', 'immediate'] as const;
export type EmailNotifications = (typeof EMAIL_NOTIFICATIONS)[number];
export const emailNotificationsSchema = z.enum(EMAIL_NOTIFICATIONS, { error: 'Choose off, daily or immediate.' });

export const failedMailSchema = z.object({
  id: z.number(),
  kind: z.string(),
  to: z.string(),
  /** The recipient's name as the mail addressed them, when it did. */
  to_name: z.string().nullable(),
  subject: z.string(),
  error: z.string(),
  attempts: z.number(),
  created_at: z.string(),
  failed_at: z.string(),
});
export type FailedMail = z.infer<typeof failedMailSchema>;
