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
