/**
 * The response header that carries how many rows a paged list matched in all. Kept free of zod
 * (like roles.ts) so that the web's API client, on every screen, does not load the schemas.
 */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';
