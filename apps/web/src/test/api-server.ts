/**
 * Component tests talk to the real API: the server app on an embedded PGlite database, reached
 * through `fetch` handed to Fastify's inject (no sockets, no mocked answers).
 */
import { buildApp, type App } from '../../../server/src/app';
import { openDatabase, type Database } from '../../../server/src/platform';
import { existingPgliteSnapshot } from '../../../server/src/test/database-templates';
import { withResponseChecks } from '../../../server/src/test/openapi-responses';
import { createCompany, createUser, loginAs, type TestCompany, type TestUser } from '../../../server/src/test/factories';
import { sharedMailServer, type MailServer } from '../../../server/src/test/mail-server';
import { storage } from '../lib/storage';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** The server's secret in the web's tests (tokens, fingerprints). */
export const TEST_SERVER_SECRET = 'web-component-tests-secret-long-enough-for-hs256';

type Answer = { status: number; json: unknown; headers?: Record<string, string> } | 'network error';

/** Where the mails' links point when the server sends mail. */
export const TEST_PUBLIC_URL = 'https://siteboard.example.test';

export interface ApiServerOptions {
  /** Send mail, as a server with SMTP_URL does, through the worker's real SMTP server (test/mail-server.ts). */
  mail?: boolean;
}

export interface ApiServer {
  app: App;
  database: Database;
  /** The SMTP server this app sends through, when started with `mail`; `app.jobs.idle()` delivers what is queued. */
  mailServer: MailServer | undefined;
  /** A new company with its admin. */
  createCompany(): Promise<TestCompany>;
  createUser(company: TestCompany, role: TestUser['role'], options?: Parameters<typeof createUser>[3]): Promise<TestUser>;
  /** A new company with its admin, a manager, and a team member in that manager's team. */
  createCrew(options?: { memberEmail?: string }): Promise<{ company: TestCompany; manager: TestUser; member: TestUser }>;
  /** Stores this user's tokens and company as a signed-in browser would. */
  signIn(user: TestUser): Promise<void>;
  /** How many requests reached the server, per `METHOD path`. */
  requests: string[];
  /** The same requests with their query, per `METHOD path?query`: which answer each asked for. */
  requestUrls: string[];
  /** The requests `answer` answered in the server's place since the last `clearAnswers`, per `METHOD path status`. */
  answered: string[];
  /**
   * Until `clearAnswers` (or the end of the test), requests whose method and path with query match
   * get `answer` instead of the server's: for what the real server is not made to do on request (a
   * failed load, an endpoint a deployment lacks), as the journeys' `page.route` does; `'network
   * error'` fails the request as fetch does without a connection. With `times`, only that many
   * matching requests are answered so; the next reach the server.
   */
  answer(method: string, pathAndQuery: RegExp, answer: Answer, options?: { times?: number }): void;
  /**
   * The next request whose method and path with query match waits before it reaches the server
   * until `release` (a slow link, at the moment a test chooses); `reached` resolves when it arrives.
   */
  hold(method: string, pathAndQuery: RegExp): { reached: Promise<void>; release: () => void };
  /**
   * The next request whose method and path with query match reaches the server twice, the same
   * headers and body each time, and the second answer is the one returned: what a proxy in front
   * of two instances does when the first one's answer was lost (deploy/nginx.conf's
   * proxy_next_upstream … non_idempotent).
   */
  resendOnce(method: string, pathAndQuery: RegExp): void;
  /** Forgets every `answer`, `hold` and `resendOnce` not yet used, and what was `answered`: done after each test. */
  clearAnswers(): void;
  close(): Promise<void>;
}

/** A form as a browser sends it (multipart/form-data), built by hand: jsdom's FormData is not Node's. */
async function encodeMultipart(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const boundary = `----siteboard-test-${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    } else {
      const bytes = Buffer.from(await value.arrayBuffer());
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.name}"\r\nContent-Type: ${value.type || 'application/octet-stream'}\r\n\r\n`), bytes, Buffer.from('\r\n'));
    }
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * This test file's API server, started before its tests and closed after them. `setup` makes the
 * people and work the tests share; what it returns is on the answer, beside `server`, once the tests run.
 */
export function apiServerForFile<Shared extends object>(setup: (server: ApiServer) => Promise<Shared>, options: ApiServerOptions = {}): Shared & { server: ApiServer } {
  const shared = {} as Shared & { server: ApiServer };
  beforeAll(async () => {
    const server = await startApiServer(options);
    Object.assign(shared, { server }, await setup(server));
  });
  afterEach(() => shared.server?.clearAnswers());
  afterAll(() => shared.server?.close());
  return shared;
}

export async function startApiServer({ mail = false }: ApiServerOptions = {}): Promise<ApiServer> {
  const database = await openDatabase({ kind: 'pglite', dataDir: null, snapshot: existingPgliteSnapshot(), keepThread: true });
  const mailServer = mail ? await sharedMailServer() : undefined;
  // Queued mails go when a test asks (`app.jobs.idle()`), as in the API tests: a poll would race the assertions.
  const mailOptions = mailServer ? { mail: { smtpUrl: mailServer.url, from: 'SiteBoard <noreply@siteboard.example.test>' }, publicUrl: TEST_PUBLIC_URL, jobPollMs: 3_600_000 } : {};
  // Every answer the screens get is checked against the OpenAPI document, as in the API tests.
  const app = withResponseChecks(await buildApp({ database, jwtSecret: TEST_SERVER_SECRET, ...mailOptions }));
  await app.ready();
  const requests: string[] = [];
  const requestUrls: string[] = [];
  const answeredRequests: string[] = [];
  const answers: { method: string; pathAndQuery: RegExp; answer: Answer; times: number }[] = [];
  const holds: { method: string; pathAndQuery: RegExp; arrived: () => void; released: Promise<void> }[] = [];
  const resends: { method: string; pathAndQuery: RegExp }[] = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input: RequestInfo | URL, init: RequestInit = {}) => {
    const handling = handle(input, init);
    const { signal } = init;
    if (!signal) return handling;
    // Given up by the page (no answer in time), as a browser's fetch is: the request itself may
    // still reach the server, as one on a slow link does after the page stopped waiting.
    handling.catch(() => {});
    return Promise.race([
      handling,
      new Promise<never>((_, reject) => {
        const abort = () => reject(new DOMException('This operation was aborted', 'AbortError'));
        if (signal.aborted) abort();
        else signal.addEventListener('abort', abort, { once: true });
      }),
    ]);
  };
  async function handle(input: RequestInfo | URL, init: RequestInit): Promise<Response> {
    const url = new URL(input instanceof Request ? input.url : String(input), window.location.origin);
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const method = init.method ?? 'GET';
    const matches = (rule: { method: string; pathAndQuery: RegExp }) => rule.method === method && rule.pathAndQuery.test(url.pathname + url.search);
    const answered = answers.find(matches);
    if (answered && --answered.times === 0) answers.splice(answers.indexOf(answered), 1);
    if (answered?.answer === 'network error') throw new TypeError('Failed to fetch');
    if (answered) {
      answeredRequests.push(`${method} ${url.pathname} ${answered.answer.status}`);
      return Response.json(answered.answer.json, { status: answered.answer.status, headers: answered.answer.headers });
    }
    const held = holds.findIndex(matches);
    if (held >= 0) {
      const [hold] = holds.splice(held, 1);
      hold!.arrived();
      await hold!.released;
    }
    requests.push(`${method} ${url.pathname}`);
    requestUrls.push(`${method} ${url.pathname}${url.search}`);
    let payload: string | Buffer | undefined = init.body === undefined || init.body === null ? undefined : String(init.body);
    if (init.body instanceof FormData) {
      const encoded = await encodeMultipart(init.body);
      payload = encoded.body;
      headers['content-type'] = encoded.contentType;
    }
    const inject = () => app.inject({ method: method as 'GET', url: url.pathname + url.search, headers, payload });
    const resent = resends.findIndex(matches);
    if (resent >= 0) {
      resends.splice(resent, 1);
      await inject();
      requests.push(`${method} ${url.pathname}`);
      requestUrls.push(`${method} ${url.pathname}${url.search}`);
    }
    const response = await inject();
    const noBody = response.statusCode === 204 || response.statusCode === 304;
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) responseHeaders.set(name, String(value));
    return new Response(noBody ? null : new Uint8Array(response.rawPayload), { status: response.statusCode, headers: responseHeaders });
  }
  return {
    app,
    database,
    mailServer,
    requests,
    requestUrls,
    answered: answeredRequests,
    answer: (method, pathAndQuery, answer, { times = Infinity } = {}) => void answers.push({ method, pathAndQuery, answer, times }),
    hold(method, pathAndQuery) {
      let arrived!: () => void;
      let release!: () => void;
      const reached = new Promise<void>((resolve) => (arrived = resolve));
      holds.push({ method, pathAndQuery, arrived, released: new Promise<void>((resolve) => (release = resolve)) });
      return { reached, release };
    },
    resendOnce: (method, pathAndQuery) => void resends.push({ method, pathAndQuery }),
    clearAnswers() {
      answers.splice(0);
      answeredRequests.splice(0);
      holds.splice(0);
      resends.splice(0);
    },
    createCompany: () => createCompany(database.db),
    createUser: (company, role, options = {}) => createUser(database.db, company.id, role, options),
    async createCrew({ memberEmail } = {}) {
      const company = await createCompany(database.db);
      const manager = await createUser(database.db, company.id, 'manager');
      const member = await createUser(database.db, company.id, 'team_member', { managerId: manager.id, email: memberEmail });
      return { company, manager, member };
    },
    async signIn(user) {
      const pair = await loginAs(app, user);
      storage.setTokens(pair.access, pair.refresh);
      storage.setCompanyId(user.companyId);
    },
    async close() {
      globalThis.fetch = realFetch;
      localStorage.clear();
      await app.close();
      await database.close();
    },
  };
}
