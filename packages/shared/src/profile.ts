import { z } from 'zod';
import { emailNotificationsSchema } from './email';
import { languageSchema } from './language-field';
import { timeZoneField } from './time-zones';
import { text } from './common';
import { FULL_NAME_MAX, userSchema } from './users';

/** The signed-in user as `GET /api/profile/` answers: the user, their language and time zone. */
export const profileSchema = userSchema.extend({
  language: languageSchema,
  /**
   * False while the language is the company's, given when the user was made: the web app then takes
   * the device's language at sign-in. True once the user chose one (in the profile, or by signing
   * their company up in it).
   */
  language_chosen: z.boolean(),
  /** Their own IANA time zone, or null when they follow the company's. */
  timezone: z.string().nullable(),
  /** The zone their "today" and their reminders follow: their own, else the company's. */
  effective_timezone: z.string(),
  /** Notification e-mails: off, a daily digest at the start of their day (the default), or each as it happens. */
  email_notifications: emailNotificationsSchema,
});
export type Profile = z.infer<typeof profileSchema>;

/** What a user may change of their own: language, time zone (null: the company's again), name and notification e-mails. */
export const updateProfileInput = z
  .object({
    language: languageSchema.optional(),
    timezone: timeZoneField.nullable().optional(),
    email_notifications: emailNotificationsSchema.optional(),
    /** One's own name as colleagues see it (lists, tasks, notifications); empty or null: none, the e-mail stands in. */
    full_name: text()
      .trim()
      .max(FULL_NAME_MAX, `Full name must be at most ${FULL_NAME_MAX} characters.`)
      .nullable()
      .optional(),
  })
  .refine((input) => input.language !== undefined || input.timezone !== undefined || input.email_notifications !== undefined || input.full_name !== undefined, 'Nothing to update.');
export type UpdateProfileInput = z.input<typeof updateProfileInput>;
