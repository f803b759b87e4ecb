import { z } from 'zod';
import { TOTAL_COUNT_HEADER } from './lists';

/**
 * Text without control characters (tab, line feed and carriage return aside) or unpaired
 * surrogates: nobody types them, PostgreSQL cannot store NUL, and an unpaired surrogate would be
 * stored as another character than the one sent. Written as a pattern that matches code units and
 * code points alike, so the OpenAPI document carries the same rule the server applies.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it keeps out
const STORABLE_TEXT = /^(?:[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;
export const UNSTORABLE_TEXT = 'Remove the control characters and broken symbols from this text.';

export const isStorableText = (value: string) => STORABLE_TEXT.test(value);

/** Every string a request carries: refused (a field error) when it holds what no text should. */
export const text = (params?: Parameters<typeof z.string>[0]) => z.string(params).regex(STORABLE_TEXT, UNSTORABLE_TEXT);

/** The years a date may fall in: a job site plans within them, and PostgreSQL stores them all. */
export const EARLIEST_YEAR = 1900;
export const LATEST_YEAR = 2200;

const DATE_IN_YEARS = '^(19[0-9]{2}|2[01][0-9]{2}|2200)-[0-9]{2}-[0-9]{2}$';
/** What the OpenAPI document says of a date field: what `dateField` checks. */
export const DATE_DOCUMENT = { type: 'string', format: 'date', pattern: DATE_IN_YEARS } as const;

/** A calendar date as the API carries it: `YYYY-MM-DD`, a real day of the calendar, between 1900 and 2200. */
export const dateField = (label: string) =>
  z
    .string({ error: `${label} is required.` })
    .min(1, `${label} is required.`)
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must use the format YYYY-MM-DD.`)
    .refine((value) => {
      const parsed = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
    }, `${label} must be a real calendar date.`)
    .refine((value) => {
      const year = Number(value.slice(0, 4));
      return year >= EARLIEST_YEAR && year <= LATEST_YEAR;
    }, `${label} must be between ${EARLIEST_YEAR} and ${LATEST_YEAR}.`)
    // The document states both rules: a real calendar date (format) in the years taken (pattern).
    .meta({ format: DATE_DOCUMENT.format, pattern: DATE_DOCUMENT.pattern });

/** Ids are PostgreSQL `integer`s: a larger number names nothing, and must not reach the database (it would fail there). */
export const MAX_ID = 2_147_483_647;

const DECIMAL_DIGITS = /^\d+$/;

/**
 * A whole number as a JSON number, or as decimal digits where only text travels (a path, a query
 * string, a form's select). Hex, exponents, signs, blanks and lists are refused with `message`
 * (unless a bound names its own).
 */
export const wholeNumber = (message: string, bounds: { min: number; max: number; tooSmall?: string; tooLarge?: string }) =>
  z.preprocess(
    (value) => (typeof value === 'string' && DECIMAL_DIGITS.test(value) ? Number(value) : value),
    z
      .number({ error: message })
      .int(message)
      .min(bounds.min, bounds.tooSmall ?? message)
      .max(bounds.max, bounds.tooLarge ?? message),
  );

export const positiveId = (message: string) => wholeNumber(message, { min: 1, max: MAX_ID });

export const idParams = z.object({ id: positiveId('The id in the path must be a whole number from 1 to 2147483647.') });

export const errorResponse = z.object({
  detail: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  /** A stable name of the refusal, for clients that act on it (the detail is translated): e.g. `password_change_required`. */
  code: z.string().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

export const requiredText = (message: string) => text({ error: message }).trim().min(1, message);

/** Optional free text: blank becomes null, so "not given" has one representation. */
export const optionalText = (max: number, label: string) =>
  text()
    .trim()
    .max(max, `${label} must be at most ${max} characters.`)
    .nullish()
    .transform((value) => (value ? value : null));

export const emailField = text({ error: 'Email is required.' })
  .trim()
  .min(1, 'Email is required.')
  .max(254, 'Email must be at most 254 characters.')
  .pipe(z.email('Enter a valid email address.'))
  .meta({ format: 'email' });

/** A query parameter naming one or more of `values`, comma separated (`ongoing,planned`); answers them without repeats. */
export const commaList = <const T extends readonly [string, ...string[]]>(field: string, values: T) => {
  const one = values.join('|');
  return z
    .string()
    .regex(new RegExp(`^(${one})(,(${one}))*$`), `${field} must be a comma list of ${values.join(', ')}.`)
    .transform((value) => [...new Set(value.split(','))] as T[number][]);
};

/**
 * A query parameter naming up to `max` ids, comma separated (`3,5,8`); answers them without
 * repeats. `tooMany` words the refusal of a longer list.
 */
export const idListParam = (field: string, ids: string, max: number, tooMany = `At most ${max} ids at once.`) =>
  z
    .string({ error: `${field} is required.` })
    .regex(/^[1-9][0-9]{0,9}(,[1-9][0-9]{0,9})*$/, `${field} must be a comma list of ${ids}.`)
    .transform((value) => [...new Set(value.split(',').map(Number))])
    .refine((list) => list.length <= max, tooMany)
    .refine((list) => list.every((id) => id <= MAX_ID), `${field} must be a comma list of ${ids}.`);

/** A case-insensitive substring filter; blank means no filter. */
export const searchParam = (what: string) =>
  text()
    .trim()
    .max(200, 'search must be at most 200 characters.')
    .transform((value) => value || undefined)
    .optional()
    .meta({ description: `Case-insensitive substring of the ${what}` });

/** A whole-number query parameter between `min` and `max`, each refusal naming it. */
export const wholeNumberParam = (field: string, min: number, max: number) =>
  wholeNumber(`${field} must be a whole number.`, { min, max, tooSmall: `${field} must be at least ${min}.`, tooLarge: `${field} must be at most ${max}.` });

/**
 * `limit` and `offset` of a list. Every list answers at most `maxLimit` rows, the first page when
 * no `limit` is asked for; the answer stays the array it always was and carries the number of
 * matching rows in its X-Total-Count header.
 */
export const pageParams = (maxLimit: number) => ({
  limit: wholeNumberParam('limit', 1, maxLimit)
    .default(maxLimit)
    .meta({ description: `At most this many rows (1–${maxLimit}, ${maxLimit} when not given); the answer carries ${TOTAL_COUNT_HEADER}, the number of matching rows` }),
  offset: wholeNumberParam('offset', 0, MAX_ID).optional().meta({ description: 'Skip this many matching rows first' }),
});
