import { z } from 'zod';
import { pageParams, requiredText } from './common';
import { languageSchema } from './language-field';
import { timeZoneField } from './time-zones';

export const companyListItem = z.object({ id: z.number(), company_id: z.number(), name: z.string() });
export type CompanyListItem = z.infer<typeof companyListItem>;

/** GET /api/companies/{id}/ (public): the company a sign-in link names exists; nothing more about it. */
export const companyLoginPageSchema = z.object({ company_id: z.number() });

export const COMPANIES_MAX_LIMIT = 100;
export const companyListQuery = z.object({ ...pageParams(COMPANIES_MAX_LIMIT) });

/** The signed-in user's own company, as its settings screen shows it. */
export const companySettingsSchema = z.object({ id: z.number(), name: z.string(), timezone: z.string(), default_language: languageSchema });
export type CompanySettings = z.infer<typeof companySettingsSchema>;

export const updateCompanySettingsInput = z
  .object({
    name: requiredText('Company name is required.').pipe(z.string().max(120, 'Company name must be at most 120 characters.')).optional(),
    timezone: timeZoneField.optional(),
    /** The language the company's new users start in. */
    default_language: languageSchema.optional(),
  })
  .refine((input) => input.name !== undefined || input.timezone !== undefined || input.default_language !== undefined, 'Nothing to update.');
export type UpdateCompanySettingsInput = z.input<typeof updateCompanySettingsInput>;
