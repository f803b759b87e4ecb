import { z } from 'zod';

/** A calendar date as the API carries it: `YYYY-MM-DD`, and a real day of the calendar. */
export const dateString = z
  .string({ error: 'Enter a date.' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use the format YYYY-MM-DD.')
  .refine((value) => {
    const parsed = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
  }, 'Enter a real calendar date.');

export const idParams = z.object({ id: z.coerce.number().int().positive() });

export const errorResponse = z.object({
  detail: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

export const requiredText = (message: string) => z.string({ error: message }).trim().min(1, message);
