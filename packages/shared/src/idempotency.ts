/**
 * What a client of keyed writes (Idempotency-Key) acts on. Kept free of zod (like lists.ts): the
 * web's offline queue, in every signed-in area's first load, reads it.
 */

/**
 * The stable code of a 409 for a write whose Idempotency-Key belongs to a request still running:
 * come back after Retry-After, and the retry gets that request's answer (the offline queue waits).
 */
export const IDEMPOTENCY_KEY_IN_PROGRESS_CODE = 'idempotency_key_in_progress';

/** The methods a signed-in call may key (Idempotency-Key): the server takes a key on these, and the web sends one with each. */
export const KEYED_WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/**
 * The header a write sent later (the offline queue) says when the person made it with: an ISO
 * 8601 time, set when the write is queued and sent unchanged on every resend. The server keeps it
 * as when the work was done, if plausible (decision record 109).
 */
export const DONE_AT_HEADER = 'X-Done-At';

/**
 * How far a device's clock may be from the server's and still be believed: a done time up to this
 * far ahead of the arrival counts as done on arrival, and a screen shows a sync time beside the done
 * time only when the write arrived later than this (decision record 109).
 */
export const DONE_AT_SKEW_MS = 5 * 60 * 1000;
