import { DONE_AT_HEADER, DONE_AT_SKEW_MS } from '@siteboard/shared';
import { KEEP_HOURS } from './idempotency';
/**
 * The oldest a write's done time may be: as long as its Idempotency-Key is kept. A write older than
 * that can no longer be told from a new one when sent again, so its device's word is not taken either.
 */
export const DONE_AT_MAX_AGE_MS = KEEP_HOURS * 60 * 60 * 1000;

/** An instant with its zone, as `toISOString` writes it (or with an offset): no bare dates, no local times. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

const headerName = DONE_AT_HEADER.toLowerCase();

/**
 * When the person did what this request writes, as their device said (X-Done-At), when that is
 * plausible: not later than the request's arrival beyond the clock-skew allowance, not older than
 * a key is kept. Undefined when the header is missing, malformed or implausible, and when it is
 * not earlier than the arrival: then the work counts as done when it arrived, as without the
 * header. An implausible time is ignored, never refused: a phone whose clock is wrong would
 * otherwise have every write of a day in the basement refused, each to be sent again by hand.
 */
export function claimedDoneAt(headers: Record<string, string | string[] | undefined>, arrival: Date): Date | undefined {
  const value = headers[headerName];
  if (typeof value !== 'string' || !INSTANT.test(value.trim())) return undefined;
  const doneAt = new Date(value.trim());
  const earlier = arrival.getTime() - doneAt.getTime();
  if (Number.isNaN(earlier) || earlier < -DONE_AT_SKEW_MS || earlier > DONE_AT_MAX_AGE_MS) return undefined;
  return earlier > 0 ? doneAt : undefined;
}
