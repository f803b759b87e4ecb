/**
 * The response header that carries how many rows a paged list matched in all. Kept free of zod
 * (like roles.ts) so that the web's API client, on every screen, does not load the schemas.
 */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';

/**
 * The stable code of a 409 for a write whose Idempotency-Key belongs to a request still running:
 * come back after Retry-After, and the retry gets that request's answer (the offline queue waits).
 */
export const IDEMPOTENCY_KEY_IN_PROGRESS_CODE = 'idempotency_key_in_progress';

/** Spec §9: project lists show 10 until "Show More" (the dashboards' first request asks for that many). */
export const PROJECT_PAGE_SIZE = 10;
