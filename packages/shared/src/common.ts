import { z } from 'zod';

/** A calendar date as the API carries it: `YYYY-MM-DD`, and a real day of the calendar. */
export const dateField = (label: string) =>
  z
    .string({ error: `${label} is required.` })
    .min(1, `${label} is required.`)
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must use the format YYYY-MM-DD.`)
    .refine((value) => {
      const parsed = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
    }, `${label} must be a real calendar date.`);


/** Ids are PostgreSQL `integer`s: a larger number names nothing, and must not reach the database (it would fail there). */
export const MAX_ID = 2_147_483_647;

export const idParams = z.object({ id: z.coerce.number().int().positive().max(MAX_ID) });

export const errorResponse = z.object({
  detail: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

export const requiredText = (message: string) => z.string({ error: message }).trim().min(1, message);

/** Optional free text: blank becomes null, so "not given" has one representation. */
export const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters.`)
    .nullish()
    .transform((value) => (value ? value : null));

export const positiveId = (message: string) => z.coerce.number({ error: message }).int(message).positive(message).max(MAX_ID, message);

export const emailField = z
  .string({ error: 'Email is required.' })
  .trim()
  .min(1, 'Email is required.')
  .max(254, 'Email must be at most 254 characters.')
  .pipe(z.email('Enter a valid email address.'));
