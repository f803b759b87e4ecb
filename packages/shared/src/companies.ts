import { z } from 'zod';
import { isTimeZone } from './auth';
import { pageParams, requiredText, text } from './common';

export const companyListItem = z.object({ id: z.number(), company_id: z.number(), name: z.string() });
export type CompanyListItem = z.infer<typeof companyListItem>;

export const COMPANIES_MAX_LIMIT = 100;
export const companyListQuery = z.object({ ...pageParams(COMPANIES_MAX_LIMIT) });

/** The signed-in user's own company, as its settings screen shows it. */
export const companySettingsSchema = z.object({ id: z.number(), name: z.string(), timezone: z.string() });
export type CompanySettings = z.infer<typeof companySettingsSchema>;

export const updateCompanySettingsInput = z
  .object({
    name: requiredText('Company name is required.').pipe(z.string().max(120, 'Company name must be at most 120 characters.')).optional(),
    timezone: text({ error: 'Choose a valid time zone.' }).refine(isTimeZone, 'Choose a valid time zone.').optional(),
  })
  .refine((input) => input.name !== undefined || input.timezone !== undefined, 'Nothing to update.');
export type UpdateCompanySettingsInput = z.input<typeof updateCompanySettingsInput>;
