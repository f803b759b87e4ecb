import { z } from 'zod';
import { TOTAL_COUNT_HEADER } from './lists';

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

/** A query parameter naming one or more of `values`, comma separated (`ongoing,planned`); answers them without repeats. */
export const commaList = <const T extends readonly [string, ...string[]]>(field: string, values: T) => {
  const one = values.join('|');
  return z
    .string()
    .regex(new RegExp(`^(${one})(,(${one}))*$`), `${field} must be a comma list of ${values.join(', ')}.`)
    .transform((value) => [...new Set(value.split(','))] as T[number][]);
};

/** A case-insensitive substring filter; blank means no filter. */
export const searchParam = (what: string) =>
  z
    .string()
    .trim()
    .max(200, 'search must be at most 200 characters.')
    // PostgreSQL text cannot hold NUL: refused here rather than failing in the database.
    .regex(/^[^\0]*$/, 'search must not contain a NUL character.')
    .transform((value) => value || undefined)
    .optional()
    .meta({ description: `Case-insensitive substring of the ${what}` });

/** A whole-number query parameter between `min` and `max`, each refusal naming it. */
const wholeNumberParam = (field: string, min: number, max: number) =>
  z.coerce
    .number<string>({ error: `${field} must be a number.` })
    .int(`${field} must be a whole number.`)
    .min(min, `${field} must be at least ${min}.`)
    .max(max, `${field} must be at most ${max}.`)
    .optional();

/**
 * `limit` and `offset` of a list. With `limit` the answer stays the array it always was and
 * carries the number of matching rows in its X-Total-Count header.
 */
export const pageParams = (maxLimit: number) => ({
  limit: wholeNumberParam('limit', 1, maxLimit).meta({ description: `At most this many rows (1–${maxLimit}); the answer then carries ${TOTAL_COUNT_HEADER}` }),
  offset: wholeNumberParam('offset', 0, MAX_ID).meta({ description: 'Skip this many matching rows first' }),
});
