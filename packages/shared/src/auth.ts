import { z } from 'zod';
import { emailField, positiveId, requiredText, text } from './common';
import { languageSchema } from './language-field';
import { timeZoneField } from './time-zones';
import { roleSchema } from './users';

export const verifyCompanyPasswordInput = z.object({
  company_name: requiredText('Company name is required.'),
  password: text({ error: 'Password is required.' }).min(1, 'Password is required.'),
});
export type VerifyCompanyPasswordInput = z.infer<typeof verifyCompanyPasswordInput>;

/** `company_name` is the company's name as stored (the step takes any case), for the sign-in screen to show. */
export const verifyCompanyPasswordSuccess = z.object({ success: z.literal(true), company_id: z.number(), company_name: z.string() });
export const verifyCompanyPasswordFailure = z.object({ success: z.literal(false), error: z.string() });

export const tokenInput = z.object({
  role: roleSchema,
  email: emailField,
  password: text({ error: 'Password is required.' }).min(1, 'Password is required.'),
  company_id: positiveId('Company is required.'),
});
export type TokenInput = z.infer<typeof tokenInput>;

export const tokenPair = z.object({ access: z.string(), refresh: z.string() });
export type TokenPair = z.infer<typeof tokenPair>;

/**
 * Sign-in's answer: the pair, and whether the web must send the user to change their password
 * first; then `password_proof` too, which stands in for the current password just typed in that change.
 */
export const loginAnswer = tokenPair.extend({
  must_change_password: z.boolean(),
  password_proof: z
    .string()
    .optional()
    .meta({ description: 'With must_change_password only: POST /api/profile/password/ takes it instead of current_password, for this login, for 10 minutes, until the password changes' }),
});
export type LoginAnswer = z.infer<typeof loginAnswer>;

export const refreshInput = z.object({ refresh: text({ error: 'Refresh token is required.' }).min(1, 'Refresh token is required.') });

export const newPassword = text({ error: 'Password is required.' })
  .min(1, 'Password is required.')
  .min(8, 'Password must be at least 8 characters.')
  .max(200, 'Password must be at most 200 characters.');

/** A new company password, which an admin sets: the same rule as a person's. */
export const companyPasswordInput = z.object({ password: newPassword });
export type CompanyPasswordInput = z.infer<typeof companyPasswordInput>;

export const signupInput = z.object({
  company_name: requiredText('Company name is required.').pipe(z.string().max(120, 'Company name must be at most 120 characters.')),
  company_password: newPassword,
  email: emailField,
  password: newPassword,
  timezone: timeZoneField.optional(),
  /** The company's default language and its admin's; unset: the browser's (Accept-Language). */
  language: languageSchema.optional(),
});
export type SignupInput = z.infer<typeof signupInput>;

export const WRONG_CURRENT_PASSWORD = 'Your current password is not correct.';

/**
 * An admin set this user's password: until they choose their own, every call but reading their
 * profile, changing the password, refreshing and signing out is refused (403) with this text and
 * this stable `code`, and the live connection is refused too.
 */
export const PASSWORD_CHANGE_REQUIRED = 'Choose a new password first: until then only your profile, a new password and signing out are open.';
export const PASSWORD_CHANGE_REQUIRED_CODE = 'password_change_required';
export const SAME_PASSWORD = 'Choose a password different from your current one.';

export const CURRENT_PASSWORD_REQUIRED = 'Current password is required.';
export const PASSWORD_PROOF_EXPIRED = 'Too long since you signed in: enter your current password.';

/**
 * A user's own change: the current password proves it is them, or, at the change forced right after
 * sign-in, the sign-in's `password_proof` (that password was just typed; it is not asked again).
 */
export const changePasswordInput = z
  .object({
    current_password: text({ error: CURRENT_PASSWORD_REQUIRED }).optional(),
    password_proof: text().min(1).max(2000).optional(),
    new_password: newPassword,
  })
  // Asked for even when the new password is missing too, so an empty form marks both fields.
  .refine((input) => Boolean(input.current_password || input.password_proof), {
    path: ['current_password'],
    message: CURRENT_PASSWORD_REQUIRED,
    when: (payload) => typeof payload.value === 'object' && payload.value !== null,
  })
  .refine((input) => !input.current_password || input.current_password !== input.new_password, { path: ['new_password'], message: SAME_PASSWORD });
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

/** An admin's reset of another user's password: that user must change it at their next sign-in. */
export const setPasswordInput = z.object({ password: newPassword });
export type SetPasswordInput = z.infer<typeof setPasswordInput>;
