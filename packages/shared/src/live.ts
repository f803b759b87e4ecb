/**
 * The live connection's subprotocol. A client that offers it may carry its access token as a
 * second offered subprotocol, `LIVE_TOKEN_PROTOCOL_PREFIX + token`, instead of in the URL (where
 * logs and the browser console show it); the server answers with `LIVE_PROTOCOL` alone.
 * Kept free of zod (like lists.ts): every signed-in area opens the connection in its first load.
 */
export const LIVE_PROTOCOL = 'siteboard.notifications';
export const LIVE_TOKEN_PROTOCOL_PREFIX = 'bearer.';
