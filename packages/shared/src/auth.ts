import { z } from 'zod';
import { emailField, positiveId, requiredText, text } from './common';
import { languageSchema } from './messages';
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

export const refreshInput = z.object({ refresh: text({ error: 'Refresh token is required.' }).min(1, 'Refresh token is required.') });

export const newPassword = text({ error: 'Password is required.' })
  .min(1, 'Password is required.')
  .min(8, 'Password must be at least 8 characters.')
  .max(200, 'Password must be at most 200 characters.');

export const signupInput = z.object({
  company_name: requiredText('Company name is required.').pipe(z.string().max(120, 'Company name must be at most 120 characters.')),
  company_password: newPassword,
  email: emailField,
  password: newPassword,
  timezone: text()
    .refine(isTimeZone, 'Choose a valid time zone.')
    .optional(),
  /** The company's default language and its admin's; unset: the browser's (Accept-Language). */
  language: languageSchema.optional(),
});
export type SignupInput = z.infer<typeof signupInput>;

/**
 * Canonical IANA zone names only: old aliases (e.g. "US/Pacific-New") pass Intl but not
 * PostgreSQL, which computes "today" for reports.
 */
export function isTimeZone(value: string): boolean {
  return value === 'UTC' || Intl.supportedValuesOf('timeZone').includes(value);
}
