import { DONE_AT_HEADER, IDEMPOTENCY_KEY_IN_PROGRESS_CODE, KEYED_WRITE_METHODS, TOTAL_COUNT_HEADER } from '@siteboard/shared';
import { takeFirstCall } from './first-call';
import { currentLanguage } from './i18n';
import { storage } from './storage';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly errors: Record<string, string[]> | undefined,
    readonly body: unknown,
    /** The server's Retry-After, in seconds, when it said to come back later. */
    readonly retryAfterSeconds?: number,
  ) {
    super(detail);
  }
}

type Query = Record<string, string | number | readonly string[] | undefined | null>;
export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** JSON, or a FormData sent as multipart/form-data. */
  body?: unknown;
  query?: Query;
  /** Public calls (company step, sign-in) send no token and never refresh. */
  auth?: boolean;
  responseType?: 'json' | 'blob';
  /**
   * A write a person may make without a signal (issue 20): sent with an Idempotency-Key made now,
   * and, when the browser is offline or earlier writes still wait, queued by the offline writer
   * (features/offline) instead; it then resolves to undefined. The value names the write in the
   * queue ("offline.write.<value>").
   */
  queue?: QueuedWriteKind;
  /** What a queued write is about, as the queue names it to the person (a task's title). */
  queueSubject?: string;
  /** The writes of one action of the person (several photos picked at once) share this: the queue counts them once. */
  queueAction?: string;
  /** Sent as the Idempotency-Key header: a repeat of this write acts once on the server. */
  idempotencyKey?: string;
  /** Sent as the X-Done-At header: when the person made this write, sent later (decision record 109). */
  doneAt?: string;
}

export type QueuedWriteKind = 'statusChange' | 'comment' | 'photo' | 'newSubtask' | 'logEntry' | 'logPhoto' | 'dailyLog';

/** A write as the offline queue keeps it: a FormData travels as its parts (IndexedDB cannot keep a FormData). */
export interface QueuedWrite {
  kind: QueuedWriteKind;
  /** What it is about (a task's title), when the caller said. */
  subject?: string;
  /** The action it is part of, when one action made several writes. */
  action?: string;
  method: NonNullable<RequestOptions['method']>;
  path: string;
  idempotencyKey: string;
  /**
   * When the person made it (ISO), sent as X-Done-At on every send, so the record of work says when
   * the work was done, not when the signal came back. Writes queued before it was kept have none.
   */
  doneAt?: string;
  json?: unknown;
  form?: [name: string, value: Blob | string, fileName?: string][];
}

export interface OfflineWriter {
  /** Offline, earlier writes still waiting, or a refused one to the same thing: this one (to `path`) goes behind them. */
  mustQueue(path: string): boolean;
  enqueue(write: QueuedWrite): Promise<void>;
  /** Sends what waits now, in order, as far as it can go (no answer or a refusal stops it). */
  flush(): Promise<void>;
  /** Sends a refused write again, as it was, to another path (see resendRefusedWriteTo). */
  resendTo(id: number, path: string): Promise<void>;
}

let offlineWriter: OfflineWriter | null = null;
/**
 * Sends the writes that wait on this device now, before a write that must not overtake them (a
 * daily log's signature after its save); resolves once they went or the queue stopped.
 */
export function sendWaitingWrites(): Promise<void> {
  return offlineWriter?.flush() ?? Promise.resolve();
}

/**
 * Sends a write the server refused again, to another path: a crew entry or photo refused because
 * its day's log was signed meanwhile, to a day whose log is still open. It is a new write (a new
 * key: the refused one never acted), still saying when it was made; the server decides again.
 * Its body goes as it was: the path says which day it was for (`?for_date=`, records 123 and 129).
 */
export function resendRefusedWriteTo(id: number, path: string): Promise<void> {
  return offlineWriter?.resendTo(id, path) ?? Promise.resolve();
}

/** The signed-in areas install the offline queue; without it every write goes straight out. */
export function setOfflineWriter(writer: OfflineWriter | null) {
  offlineWriter = writer;
}

/** A UUID, also where `crypto.randomUUID` is missing (plain HTTP on a site's local network). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A QueuedWrite's body as a request body again. */
export function bodyOfQueuedWrite(write: QueuedWrite): unknown {
  if (!write.form) return write.json;
  const form = new FormData();
  for (const [name, value, fileName] of write.form) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, fileName);
  }
  return form;
}

function toQueuedWrite(path: string, options: RequestOptions & { queue: QueuedWriteKind; idempotencyKey: string; doneAt: string }): QueuedWrite {
  const write: QueuedWrite = { kind: options.queue, method: options.method ?? 'POST', path, idempotencyKey: options.idempotencyKey, doneAt: options.doneAt };
  if (options.queueSubject) write.subject = options.queueSubject;
  if (options.queueAction) write.action = options.queueAction;
  if (options.body instanceof FormData) {
    write.form = [...options.body.entries()].map(([name, value]) => (typeof value === 'string' ? [name, value] : [name, value, value.name]));
  } else write.json = options.body;
  return write;
}

let onSessionExpired: () => void = () => {};
/** The auth provider decides what an expired session means for the screen (go to login). */
export function setSessionExpiredHandler(handler: () => void) {
  onSessionExpired = handler;
}

/** The app's only fetch: bearer token, one refresh-and-retry on 401, errors as ApiError. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  if (options.queue && offlineWriter) {
    const writer = offlineWriter;
    // The moment the person acted: a write that goes later says so (X-Done-At), one that goes now needs not.
    const queued = { ...options, queue: options.queue, idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(), doneAt: new Date().toISOString() };
    if (writer.mustQueue(path)) {
      await writer.enqueue(toQueuedWrite(path, queued));
      return undefined as T;
    }
    try {
      return await api<T>(path, { ...queued, queue: undefined, queueSubject: undefined, queueAction: undefined, doneAt: undefined });
    } catch (error) {
      // No answer at all (the signal dropped on the way): the same write, same key, waits its turn.
      if (error instanceof ApiError) throw error;
      await writer.enqueue(toQueuedWrite(path, queued));
      return undefined as T;
    }
  }
  const response = await request(path, options);
  if (response.status === 204) return undefined as T;
  return (options.responseType === 'blob' ? response.blob() : response.json()) as Promise<T>;
}

/** A file the server sent for download, with the name it gave it (Content-Disposition), if any. */
export interface DownloadedFile {
  blob: Blob;
  fileName: string | undefined;
}

/** A call that answers a file: its bytes, and the file name the server chose. */
export async function apiFile(path: string, options: RequestOptions = {}): Promise<DownloadedFile> {
  const response = await request(path, { ...options, responseType: 'blob' });
  const disposition = response.headers.get('content-disposition') ?? '';
  return { blob: await response.blob(), fileName: /filename="([^"]+)"/.exec(disposition)?.[1] };
}

/** Some rows of a list the server pages, and how many rows the whole (filtered) list has. */
export interface ListPage<T> {
  items: T[];
  total: number;
}

/** A list call with a `limit`: the rows, and the total the server counted in its X-Total-Count header. */
export async function apiPage<T>(path: string, options: RequestOptions = {}): Promise<ListPage<T>> {
  const response = await request(path, options);
  const items = (await response.json()) as T[];
  const total = response.headers.get(TOTAL_COUNT_HEADER);
  return { items, total: total === null ? items.length : Number(total) };
}

async function request(path: string, given: RequestOptions): Promise<Response> {
  const auth = given.auth ?? true;
  // Every signed-in write carries a key of its own, so that sending it again acts once: a proxy in
  // front of two instances sends a write again to the other when the first lost its connection
  // before answering (deploy/nginx.conf), though the first may have committed it; the server then
  // answers with the first one's answer. The refresh-and-retry below sends the same key.
  const options = auth && KEYED_WRITE_METHODS.has(given.method ?? 'GET') && !given.idempotencyKey ? { ...given, idempotencyKey: newIdempotencyKey() } : given;
  // The first screen's call, already on its way since the page started (first-call.ts).
  const early = auth && (options.method ?? 'GET') === 'GET' && !options.query && options.responseType !== 'blob' ? takeFirstCall(path, storage.token, currentLanguage()) : undefined;
  const taken = early && (await early);
  if (taken) return taken;
  // Whose call it is: a resend after a wait goes only for the same person (a shared tablet may have
  // changed hands meanwhile, and a key is its user's).
  const caller = auth ? signedIn() : null;
  let response = await sendSignedIn(path, options, auth);
  // The same write is still running on the server (a proxy sent it again to another instance while
  // the first was at it): its answer comes once it ends, to the same key, after Retry-After.
  for (let again = 0; again < KEY_IN_PROGRESS_RESENDS && options.idempotencyKey; again++) {
    const wait = await keyInProgressWait(response);
    if (wait === undefined) break;
    await new Promise((resolve) => setTimeout(resolve, wait));
    if (!storage.token || signedIn() !== caller) break;
    response = await sendSignedIn(path, options, auth);
  }
  if (!response.ok) throw await toApiError(response);
  return response;
}

/** Who is signed in on this device now: the stored user, else the token. */
const signedIn = () => storage.readUser()?.id ?? storage.token;

/** Sends the call with the stored access token; refused as expired, once more with a refreshed one, else the session ends. */
async function sendSignedIn(path: string, options: RequestOptions, auth: boolean): Promise<Response> {
  const response = await send(path, options, auth ? storage.token : null);
  if (response.status !== 401 || !auth) return response;
  const refreshed = await refreshAccessToken(storage.token);
  if (!refreshed) {
    storage.clearSession();
    onSessionExpired();
    throw await toApiError(response);
  }
  return send(path, options, refreshed);
}

/** How often a write whose key is still in progress is sent again before its 409 is shown. */
export const KEY_IN_PROGRESS_RESENDS = 2;

/** For a 409 "this key is still in progress" with Retry-After, the wait before sending again (at most 5 s), else undefined. */
async function keyInProgressWait(response: Response): Promise<number | undefined> {
  if (response.status !== 409) return undefined;
  const error = await toApiError(response.clone());
  const code = (error.body as { code?: unknown } | null)?.code;
  if (code !== IDEMPOTENCY_KEY_IN_PROGRESS_CODE || error.retryAfterSeconds === undefined) return undefined;
  return Math.min(error.retryAfterSeconds, 5) * 1000;
}

/**
 * A write that has had no answer for this long is given up as unanswered (NoAnswer): a signal with
 * bars but no data held "Send for approval" open for good, and closing the page lost the change. A
 * write that may wait then waits in the offline queue (same key: should the server have had it,
 * it acts once); any other says there is no connection. An upload gets longer, by its size.
 */
export const WRITE_NO_ANSWER_MS = 30_000;
/** The wait for a write's answer now: WRITE_NO_ANSWER_MS, shorter only in a test. */
export const noAnswerWait = { writeMs: WRITE_NO_ANSWER_MS };
/** What a slow phone connection still uploads in a second (2G's EDGE is ~25 KB/s): an upload may take its size at this rate. */
const SLOW_UPLOAD_BYTES_PER_SECOND = 16 * 1024;

/** No answer came in time (WRITE_NO_ANSWER_MS): the page says "no connection" of it, as of a fetch that failed. */
export class NoAnswer extends TypeError {
  constructor() {
    super('Failed to fetch');
    this.name = 'NoAnswer';
  }
}

function noAnswerLimit(body: unknown): number {
  if (!(body instanceof FormData)) return noAnswerWait.writeMs;
  let bytes = 0;
  for (const [, value] of body.entries()) bytes += typeof value === 'string' ? value.length : value.size;
  return noAnswerWait.writeMs + (bytes / SLOW_UPLOAD_BYTES_PER_SECOND) * 1000;
}

async function send(path: string, options: RequestOptions, token: string | null): Promise<Response> {
  const [url, init] = fetchArguments(path, options, token);
  if (!KEYED_WRITE_METHODS.has(options.method ?? 'GET')) return fetch(url, init);
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), noAnswerLimit(options.body));
  try {
    return await fetch(url, { ...init, signal: stop.signal });
  } catch (error) {
    throw stop.signal.aborted ? new NoAnswer() : error;
  } finally {
    clearTimeout(timer);
  }
}

function fetchArguments(path: string, options: RequestOptions, token: string | null): [URL, RequestInit] {
  const url = new URL(path, window.location.origin);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    // A list of values travels as one comma list (`role=manager,team_member`).
    const text = Array.isArray(value) ? value.join(',') : value;
    if (text !== undefined && text !== null && text !== '') url.searchParams.set(key, String(text));
  }
  // The server writes its error details (and, signed out, everything else it says) in this language.
  const headers: Record<string, string> = { Accept: options.responseType === 'blob' ? '*/*' : 'application/json', 'Accept-Language': currentLanguage() };
  // A form (a photo upload) sets its own multipart boundary; anything else travels as JSON.
  const isForm = options.body instanceof FormData;
  if (options.body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  if (options.doneAt) headers[DONE_AT_HEADER] = options.doneAt;
  const body = options.body === undefined ? undefined : isForm ? (options.body as FormData) : JSON.stringify(options.body);
  return [url, { method: options.method ?? 'GET', headers, body }];
}

async function toApiError(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => null);
  const record = (body ?? {}) as { detail?: unknown; errors?: Record<string, string[]> };
  const detail = typeof record.detail === 'string' ? record.detail : response.statusText || `Request failed (${response.status})`;
  const retryAfter = Number(response.headers.get('Retry-After') ?? Number.NaN);
  return new ApiError(response.status, detail, record.errors, body, Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined);
}

let refreshInFlight: Promise<string | null> | null = null;

/**
 * A refresh token is single-use, so two refreshes racing (two calls, or two tabs) would look like
 * token theft and end the session: one refresh at a time per browser (Web Locks across tabs),
 * and whoever waited picks up the token the winner stored. Null when the session is over (the
 * refresh token refused); an ApiError when the server could not answer (5xx, 429).
 */
function refreshAccessToken(staleAccess: string | null): Promise<string | null> {
  refreshInFlight ??= withBrowserLock(async () => {
    if (storage.token && storage.token !== staleAccess) return storage.token;
    const refresh = storage.refreshToken;
    if (!refresh) return null;
    const response = await send('/api/token/refresh/', { method: 'POST', body: { refresh } }, null);
    // The server could not answer now (its database lost for a moment, too busy): the session is
    // not over, only this call failed; the offline queue sends its write again after Retry-After.
    if (response.status >= 500 || response.status === 429) throw await toApiError(response);
    if (!response.ok) return null;
    const pair = (await response.json()) as { access: string; refresh: string };
    storage.setTokens(pair.access, pair.refresh);
    return pair.access;
  }).finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

function withBrowserLock<T>(task: () => Promise<T>): Promise<T> {
  return navigator.locks ? (navigator.locks.request('siteboard-token-refresh', task) as Promise<T>) : task();
}

/** Copies the server's field errors onto a react-hook-form form. */
export function applyFieldErrors<T extends Record<string, unknown>>(
  error: unknown,
  setError: (name: keyof T & string, error: { type: string; message: string }) => void,
  fields: readonly (keyof T & string)[],
): boolean {
  if (!(error instanceof ApiError) || !error.errors) return false;
  let applied = false;
  for (const [field, messages] of Object.entries(error.errors)) {
    if ((fields as readonly string[]).includes(field) && messages[0]) {
      setError(field as keyof T & string, { type: 'server', message: messages[0] });
      applied = true;
    }
  }
  return applied;
}
