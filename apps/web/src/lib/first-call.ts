/**
 * A call a dashboard draws its first screen from, started by index.html's route-preload script
 * (route-preload.ts) while the scripts are still downloading, so that on a phone's connection its
 * answer is here when the screen first draws instead of a round trip after it (decision record 099).
 */
export interface FirstCall {
  path: string;
  token: string;
  language: string;
  /** performance.now() when it was sent. */
  startedAt: number;
  /** null: no answer at all (offline). */
  response: Promise<Response | null>;
}

declare global {
  interface Window {
    __siteboardFirstCalls?: FirstCall[];
  }
}

/** An answer older than this is not taken up: the screen asks again (a dashboard opened much later, after a password change). */
const TAKEN_WITHIN_MS = 30_000;

/**
 * The early call's answer for a GET of `path` with this token and language, taken once (the next
 * call of that path asks the server); undefined when there is none (another session or language,
 * or too old), and its
 * promise resolves to undefined when the early call got no successful answer: the caller then asks
 * as it always does (a 401 refreshes the session there, an error is read there).
 */
export function takeFirstCall(path: string, token: string | null, language: string): Promise<Response | undefined> | undefined {
  const calls = window.__siteboardFirstCalls;
  const index = calls?.findIndex((call) => call.path === path) ?? -1;
  if (index < 0) return undefined;
  const call = calls!.splice(index, 1)[0]!;
  if (call.token !== token || call.language !== language || performance.now() - call.startedAt > TAKEN_WITHIN_MS) return undefined;
  return call.response.then((response) => (response?.ok ? response : undefined));
}
