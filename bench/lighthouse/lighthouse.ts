/**
 * Lighthouse performance bench: `/` and `/login` as an anonymous visitor, every area (`/manager`, `/team-member`,
 * `/admin`) and the manager's `/manager/projects` and `/manager/drawings` opened directly, signed in as the
 * area's demo account, each with the mobile (Lighthouse default) and desktop presets,
 * performance category only; with BENCH_BEFORE_DIR, an earlier checkout's build side by side.
 *
 * Usage (from the repo root; the web app must be built first; about 3 minutes with 3 runs):
 *   npm run build
 *   npm run bench:lighthouse          (= npx tsx bench/lighthouse/lighthouse.ts)
 *
 * What it does:
 *   1. Starts its own server (`npm run seed:demo`, then the server's start script, as e2e/start-server.sh)
 *      on a brand-new embedded database in a temp DATA_DIR, or on DATABASE_URL when that is set
 *      (seeding is idempotent there), and waits for /api/health/.
 *   2. Launches the system Chromium headless through chrome-launcher, and loads each page once, untimed
 *      (LIGHTHOUSE_WARMUP=0 skips this): the server has just started, and a deployed one has served
 *      many loads before a phone opens the app.
 *   3. For every page × preset runs Lighthouse LIGHTHOUSE_RUNS times and keeps the median run
 *      (Lighthouse's computeMedianRun: closest to the median FCP and TTI); with BENCH_BEFORE_DIR the
 *      two sides take turns run by run, so both see the same stretches of a shared machine's load.
 *      - `/`, `/login`: localStorage of the origin is emptied first, so it is a first-time anonymous visit.
 *      - `/manager`, `/team-member`, `/admin` and the manager's screens: the area's demo account's tokens come from the API (company step, POST /api/token/, GET /api/profile/) and are
 *        written into the origin's localStorage (keys token, refreshToken, user, company_id) through
 *        Playwright connected over CDP to the same Chromium; the page itself then loads as a returning,
 *        signed-in user does, including its data requests. Lighthouse still empties the HTTP cache
 *        before every run (localStorage is not among its clearStorageTypes), so every load is cold.
 *        The run fails unless the audited page ended on its area with /api/profile/ answered 200.
 *      `/` and `/login` fail likewise unless they ended where they started without calling /api/profile/.
 *   4. Reads each run's trace for the page's main thread after the first paint: its tasks' time, and
 *      how much of it the thread was on a CPU (a busy machine makes the page wait for a core, which the
 *      simulation counts ×4 as the page's own work).
 *   5. Prints a table and writes bench/results/lighthouse.md (the current result), then stops the server (SIGTERM), Chromium, and removes the temp directories.
 *      A detached watchdog does the same if the bench dies first (Ctrl+C while Lighthouse is busy makes
 *      tsx SIGKILL it).
 *
 * Numbers move with the machine's load: TBT most (the markdown records the load average). The default
 * simulated throttling estimates FCP from what had loaded by the first paint of the real, unthrottled
 * localhost load, so markup painted before the scripts arrive is credited only when that local paint
 * beat the scripts; LIGHTHOUSE_THROTTLING=devtools measures such effects for real.
 *
 * Environment:
 *   WEB_DIST_DIR           built web app to serve (default apps/web/dist; must contain index.html)
 *   LIGHTHOUSE_PORT        server port (default 4185; when the default is taken a free one is used); BENCH_BEFORE_DIR's
 *                          server takes the next port when it is free
 *   DATABASE_URL           use this PostgreSQL database instead of a temp embedded one
 *   CHROME_PATH            Chromium binary (default /usr/bin/chromium)
 *   LIGHTHOUSE_RUNS        runs per page × preset, median kept (default 3)
 *   LIGHTHOUSE_PAGES       comma-separated pages to audit (default "/,/login,/manager,/team-member,/admin,/manager/projects,/manager/drawings")
 *   BENCH_BEFORE_DIR       an earlier checkout, built (`git archive <commit> | tar -x -C /tmp/before`, then
 *                          `npm ci --ignore-scripts && npm run build` there): its server on a fresh embedded
 *                          database of its own serves its web app; the two take turns run by run, page by page
 *   LIGHTHOUSE_PRESETS     comma-separated presets (default "mobile,desktop")
 *   LIGHTHOUSE_THROTTLING  simulate (default, Lighthouse's Lantern model) or devtools (really throttles the
 *                          network and CPU while loading: slower and noisier, but nothing is modelled)
 *   LIGHTHOUSE_REPORT_DIR  if set, also writes each median run's full report there (HTML and JSON)
 *   LIGHTHOUSE_TRACE_DIR   if set, also writes every run's Chromium trace there (<page>-<preset>-<attempt>.trace.json):
 *                          the unthrottled tasks Lighthouse's simulation scales, to attribute with the build's source maps
 *   LIGHTHOUSE_WARMUP      0 to audit the server's very first loads after its start (default: one untimed load of each page first)
 *   LIGHTHOUSE_RESULTS_DIR where the markdown goes (default bench/results)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium as playwrightChromium } from '@playwright/test';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse, { desktopConfig, generateReport, type Config, type Flags, type Result } from 'lighthouse';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { Util } from 'lighthouse/shared/util.js';
import { beforeCheckout, ensureServerBuilt, freePort, startServer, thisCheckout, type Checkout } from '../lib/server';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DEFAULT_PORT = 4185;
const JWT_SECRET = 'lighthouse-bench-secret-that-is-long-enough-for-hs256';
const DEMO_COMPANY = { name: 'SiteBoard Demo', password: 'demo-company' } as const;
const DEMO_PASSWORD = 'demo-password';
/** Who each signed-in area is measured as: a demo account of that role (apps/server/src/scripts/demo-data.ts). */
const ACCOUNTS = {
  '/manager': { email: 'manager1@example.com', role: 'manager' },
  '/team-member': { email: 'member1@example.com', role: 'team_member' },
  '/admin': { email: 'admin@example.com', role: 'admin' },
} as const;
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

type Area = keyof typeof ACCOUNTS;
/** An area's dashboard or one of its screens, opened directly (a link, a bookmark, the home-screen icon). */
type SignedInPage = Area | '/manager/projects' | '/manager/drawings';
type PageName = '/' | '/login' | SignedInPage;
type PresetName = 'mobile' | 'desktop';
/** The landing page, sign-in, and each area's first screen; the manager's projects and drawings as screens opened directly. */
const PAGES: PageName[] = ['/', '/login', '/manager', '/team-member', '/admin', '/manager/projects', '/manager/drawings'];
const isSignedIn = (page: PageName): page is SignedInPage => page !== '/' && page !== '/login';
/** The demo account a signed-in page is measured as: its area's. */
const accountFor = (page: SignedInPage) => ACCOUNTS[`/${page.split('/')[1]}` as Area];
/** A page's name in file names: landing, login, manager, team-member, admin, manager-projects, manager-drawings. */
const slug = (page: PageName) => (page === '/' ? 'landing' : page.slice(1).replace(/\//g, '-'));
const PRESETS: { name: PresetName; config: Config | undefined }[] = [
  { name: 'mobile', config: undefined },
  { name: 'desktop', config: desktopConfig },
];

class BenchError extends Error {}

// ---------------------------------------------------------------------------------------------
// Watchdog

/**
 * Runs detached, in plain Node: when the IPC channel to the bench closes (the bench ended, however it
 * ended), it sends SIGTERM to the process groups still registered, SIGKILL after 15 s, and removes the
 * directories still registered. The bench unregisters what it cleans up itself, so normally it does nothing.
 */
const WATCHDOG_SOURCE = `
let state = { groups: [], dirs: [] };
const signal = (pgid, name) => { try { process.kill(-pgid, name); return true; } catch { return false; } };
process.on('message', (next) => { state = next; });
process.on('disconnect', () => {
  state.groups.forEach((pgid) => signal(pgid, 'SIGTERM'));
  const deadline = Date.now() + 15000;
  const finish = () => {
    state.groups.forEach((pgid) => signal(pgid, 'SIGKILL'));
    for (const dir of state.dirs) { try { require('node:fs').rmSync(dir, { recursive: true, force: true }); } catch {} }
    process.exit(0);
  };
  const poll = () => (state.groups.some((pgid) => signal(pgid, 0)) && Date.now() < deadline ? setTimeout(poll, 200) : finish());
  poll();
});
`;

/**
 * Ctrl+C reaches npm, tsx and the bench; when Lighthouse keeps the bench's event loop busy, tsx SIGKILLs
 * it before its own cleanup runs. The server and Chromium run in process groups of their own, so the
 * watchdog stops them and removes the temp directories in that case.
 */
class Watchdog {
  private readonly child: ChildProcess;
  private readonly groups = new Set<number>();
  private readonly dirs = new Set<string>();

  constructor() {
    this.child = spawn(process.execPath, ['-e', WATCHDOG_SOURCE], { detached: true, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    this.child.unref();
    this.child.channel?.unref();
  }

  watchGroup(pgid: number | undefined) {
    if (pgid) this.groups.add(pgid);
    this.sync();
  }

  unwatchGroup(pgid: number | undefined) {
    if (pgid) this.groups.delete(pgid);
    this.sync();
  }

  watchDir(dir: string | undefined) {
    if (dir) this.dirs.add(dir);
    this.sync();
  }

  unwatchDir(dir: string | undefined) {
    if (dir) this.dirs.delete(dir);
    this.sync();
  }

  close() {
    if (this.child.connected) this.child.disconnect();
  }

  private sync() {
    if (this.child.connected) this.child.send({ groups: [...this.groups], dirs: [...this.dirs] });
  }
}

// ---------------------------------------------------------------------------------------------
// Server

interface RunningServer {
  origin: string;
  database: string;
  stop(): Promise<void>;
}

async function choosePort(): Promise<number> {
  const requested = process.env.LIGHTHOUSE_PORT;
  if (requested) {
    const port = Number(requested);
    if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new BenchError(`LIGHTHOUSE_PORT must be a port number (got "${requested}")`);
    if ((await freePort(port)) !== port) throw new BenchError(`LIGHTHOUSE_PORT ${port} is already in use`);
    return port;
  }
  const port = await freePort(DEFAULT_PORT);
  if (port !== DEFAULT_PORT) console.warn(`Port ${DEFAULT_PORT} is in use; using ${port}.`);
  return port;
}

/** Runs a command to completion; rejects with its output when it fails. */
async function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Promise<void> {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new BenchError(`${command} ${args.join(' ')} failed (exit ${code}):\n${output}`);
}

/** The built web app served by the compiled server (bench/lib/server.ts), on the demo company. */
async function startLighthouseServer(webDist: string, watchdog: Watchdog, checkout: Checkout = thisCheckout): Promise<RunningServer> {
  // The earlier checkout takes the port after LIGHTHOUSE_PORT when that is set and free (a machine whose ports are shared out).
  const requested = Number(process.env.LIGHTHOUSE_PORT) || undefined;
  const port = checkout === thisCheckout ? await choosePort() : await freePort(requested && requested + 1);
  // The earlier checkout has its own schema: it always gets a fresh embedded database of its own.
  const databaseUrl = checkout === thisCheckout ? process.env.DATABASE_URL : undefined;
  const dataDir = databaseUrl ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-lighthouse-'));
  const env: Record<string, string | undefined> = { JWT_SECRET, WEB_DIST_DIR: webDist, INIT_CWD: checkout.root, ...(dataDir ? { DATA_DIR: dataDir } : { DATABASE_URL: databaseUrl }) };
  watchdog.watchDir(dataDir);
  const removeDataDir = () => {
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    watchdog.unwatchDir(dataDir);
  };
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    await run('npm', ['run', '--silent', 'seed:demo'], { ...process.env, ...env }, checkout.root);
    ensureServerBuilt(checkout);
    server = await startServer({ env, port, checkout, stdio: 'collect' });
  } catch (error) {
    removeDataDir();
    throw error instanceof Error ? new BenchError(error.message) : error;
  }
  // Its own process group: the watchdog stops it should this process be killed first.
  watchdog.watchGroup(server.pid);
  const stop = async () => {
    await server.stop();
    watchdog.unwatchGroup(server.pid);
    removeDataDir();
  };
  return { origin: `http://localhost:${server.port}`, database: databaseUrl ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite, fresh temp DATA_DIR', stop };
}

// ---------------------------------------------------------------------------------------------
// Signing in

interface Session {
  access: string;
  refresh: string;
  user: { id: number; role: string; company_id: number };
}

async function postJson<T>(origin: string, pathname: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(`${origin}${pathname}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new BenchError(`${pathname} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** The app's own sign-in, through the API: company step, token pair, profile. */
async function signIn(origin: string, account: (typeof ACCOUNTS)[Area]): Promise<Session> {
  const { company_id } = await postJson<{ company_id: number }>(origin, '/api/verify-company-password/', {
    company_name: DEMO_COMPANY.name,
    password: DEMO_COMPANY.password,
  });
  const pair = await postJson<{ access: string; refresh: string }>(origin, '/api/token/', {
    email: account.email,
    password: DEMO_PASSWORD,
    role: account.role,
    company_id,
  });
  const user = await postJson<Session['user']>(origin, '/api/profile/', undefined, pair.access);
  if (user.role !== account.role) throw new BenchError(`${account.email} signed in with role ${user.role}, not ${account.role}`);
  return { access: pair.access, refresh: pair.refresh, user };
}

/**
 * Sets the origin's localStorage to exactly `items` (empty: signed out). A throwaway blank document
 * on the origin is served by Playwright itself, so no app code runs while storage is prepared.
 */
async function setOriginStorage(chromePort: number, origin: string, items: Record<string, string>): Promise<void> {
  const browser = await playwrightChromium.connectOverCDP(`http://127.0.0.1:${chromePort}`);
  try {
    const context = browser.contexts()[0];
    if (!context) throw new BenchError('Chromium has no default browser context');
    const page = await context.newPage();
    const blank = `${origin}/__lighthouse-storage__`;
    await page.route(blank, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>storage</title>' }));
    await page.goto(blank);
    await page.evaluate((entries) => {
      localStorage.clear();
      for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
    }, items);
    await page.close();
  } finally {
    // Over CDP this only disconnects Playwright; Chromium stays up for Lighthouse.
    await browser.close();
  }
}

/** The origin's storage as a load of `page` needs it: a fresh session of the area's demo account, or empty (signed out) for `/`. */
async function prepareStorage(chromePort: number, origin: string, page: PageName): Promise<void> {
  if (!isSignedIn(page)) return setOriginStorage(chromePort, origin, {});
  const session = await signIn(origin, accountFor(page));
  await setOriginStorage(chromePort, origin, {
    token: session.access,
    refreshToken: session.refresh,
    user: JSON.stringify(session.user),
    company_id: String(session.user.company_id),
  });
}

/**
 * One untimed load of each page before the audits. The server has just started: its first answers
 * run cold code (its JavaScript not yet optimised, PGlite's WebAssembly compiled on first use in
 * background threads that share the cores with Chromium). Without this, the first audit after the
 * start scored lowest in every round (`git show f907f16:bench/results/2026-11-25-issue-22-transitions.md`); a deployed
 * server has served many loads before a phone opens the app. Lighthouse still empties the browser's
 * cache and stores before every audit, so the page itself loads cold each time.
 */
async function warmUp(chromePort: number, origin: string, pages: PageName[]): Promise<void> {
  for (const page of pages) {
    await prepareStorage(chromePort, origin, page);
    const browser = await playwrightChromium.connectOverCDP(`http://127.0.0.1:${chromePort}`);
    try {
      const context = browser.contexts()[0];
      if (!context) throw new BenchError('Chromium has no default browser context');
      const tab = await context.newPage();
      await tab.goto(`${origin}${page}`);
      // Until the page's data and lazy screens have arrived.
      await tab.waitForLoadState('networkidle');
      const landed = new URL(tab.url()).pathname.replace(/\/+$/, '') || '/';
      if (landed !== page) throw new BenchError(`The warm-up load of ${page} ended on ${tab.url()}`);
      await tab.close();
    } finally {
      await browser.close();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Lighthouse

interface NetworkItem {
  url: string;
  statusCode: number;
  resourceType?: string;
  transferSize?: number;
}

interface Opportunity {
  title: string;
  displayValue: string;
  savings: string;
}

interface CaseResult {
  page: PageName;
  preset: PresetName;
  /** Which code served it: this checkout (after) or BENCH_BEFORE_DIR's (before). */
  checkout: string;
  lhr: Result;
  scores: number[];
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
  jsTransfer: number;
  totalTransfer: number;
  apiRequests: string[];
  lcpElement: string;
  top: Opportunity[];
  mainThread: MainThreadTime;
}

/**
 * The page's main thread after the observed first paint, from the run's trace: how long its tasks
 * took (what Lighthouse's simulation scales) and how much of that the thread was on a CPU (the
 * trace's thread time). On a machine whose other processes (Chromium's compositor and browser
 * process, the server, Lighthouse itself) take the cores, the difference is time the page waited
 * for a core, which the simulated TBT counts ×4 as the page's own work.
 */
interface MainThreadTime {
  wallMs: number;
  cpuMs: number;
  /** Σ max(0, 4 × task − 50 ms) over the tasks, from their duration and from their thread time. */
  blockingFromWallMs: number;
  blockingFromCpuMs: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

function mainThreadTime(trace: { traceEvents: TraceEvent[] }, lhr: Result, cpuSlowdown: number): MainThreadTime {
  const events = trace.traceEvents;
  const names = new Map(events.filter((event) => event.name === 'thread_name').map((event) => [`${event.pid}:${event.tid}`, event.args?.name]));
  const perThread = new Map<string, number>();
  for (const event of events) {
    const key = `${event.pid}:${event.tid}`;
    if (names.get(key) === 'CrRendererMain') perThread.set(key, (perThread.get(key) ?? 0) + 1);
  }
  // The audited page's renderer is the busiest main thread in the trace.
  const main = [...perThread].sort((a, b) => b[1] - a[1])[0]?.[0];
  const metrics = (lhr.audits.metrics?.details as { items?: { observedFirstContentfulPaintTs?: number }[] } | undefined)?.items?.[0];
  const firstPaint = metrics?.observedFirstContentfulPaintTs;
  if (!main || firstPaint === undefined) throw new BenchError('The trace has no page main thread or the run no observed first paint');
  const tasks = events.filter(
    (event) => `${event.pid}:${event.tid}` === main && event.ph === 'X' && event.name === 'RunTask' && event.ts >= firstPaint && event.dur !== undefined && event.tdur !== undefined,
  );
  const blocking = (ms: number) => Math.max(0, cpuSlowdown * ms - 50);
  const sum = (value: (task: TraceEvent) => number) => tasks.reduce((total, task) => total + value(task), 0);
  return {
    wallMs: sum((task) => task.dur! / 1000),
    cpuMs: sum((task) => task.tdur! / 1000),
    blockingFromWallMs: sum((task) => blocking(task.dur! / 1000)),
    blockingFromCpuMs: sum((task) => blocking(task.tdur! / 1000)),
  };
}

function numeric(lhr: Result, id: string): number {
  const value = lhr.audits[id]?.numericValue;
  if (typeof value !== 'number') throw new BenchError(`Lighthouse gave no value for ${id} (${lhr.audits[id]?.errorMessage ?? 'missing'})`);
  return value;
}

function networkItems(lhr: Result): NetworkItem[] {
  const details = lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined;
  return details?.items ?? [];
}

function jsTransferSize(lhr: Result): number {
  const details = lhr.audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] } | undefined;
  const script = details?.items?.find((item) => item.resourceType === 'script');
  if (script) return script.transferSize;
  return networkItems(lhr)
    .filter((item) => item.resourceType === 'Script')
    .reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
}

/** The LCP element as Lighthouse names it, e.g. `h1.text-3xl` with its HTML snippet. */
function lcpElement(lhr: Result): string {
  type Node = { nodeLabel?: string; snippet?: string };
  const details = lhr.audits['largest-contentful-paint-element']?.details as { items?: { items?: { node?: Node }[] }[] } | undefined;
  const node = details?.items?.[0]?.items?.[0]?.node;
  if (!node) return 'unknown';
  const snippet = (node.snippet ?? '').replace(/\s+/g, ' ');
  return `${node.nodeLabel ?? ''} \`${snippet.length > 120 ? `${snippet.slice(0, 117)}...` : snippet}\``.trim();
}

/** The report's own ordering of the performance diagnostics (performance-category-renderer.js). */
function topDiagnostics(lhr: Result, count: number): Opportunity[] {
  const category = lhr.categories.performance;
  const metrics = category.auditRefs
    .filter((ref) => ref.group === 'metrics' && ref.acronym)
    .map((ref) => ({ acronym: ref.acronym!, weight: ref.weight, audit: lhr.audits[ref.id] }));
  const impact = (audit: Result['audits'][string]) => {
    let overall = 0;
    let linear = 0;
    for (const [acronym, savings] of Object.entries(audit.metricSavings ?? {})) {
      const metric = metrics.find((candidate) => candidate.acronym === acronym);
      if (savings === undefined || !metric || metric.audit.score === null || !metric.audit.numericValue) continue;
      const value = metric.audit.numericValue;
      linear += (savings / value) * metric.weight;
      const scoring = metric.audit.scoringOptions;
      if (scoring) overall += (Util.computeLogNormalScore(scoring, value - savings) - metric.audit.score) * metric.weight;
    }
    return { overall, linear };
  };
  const failing = category.auditRefs
    .filter((ref) => ref.group === 'diagnostics')
    .map((ref) => lhr.audits[ref.id])
    .filter((audit) => {
      if (audit.scoreDisplayMode === 'manual' || audit.scoreDisplayMode === 'notApplicable') return false;
      if (audit.scoreDisplayMode === 'informative' || audit.scoreDisplayMode === 'error') return true;
      return Number(audit.score) < 0.9;
    })
    .map((audit) => ({ audit, ...impact(audit), guidance: audit.guidanceLevel || 1 }));
  failing.sort((a, b) => {
    const scoreA = a.audit.score || 0;
    const scoreB = b.audit.score || 0;
    if (scoreA !== scoreB) return scoreA - scoreB;
    if (a.overall !== b.overall) return b.overall * b.guidance - a.overall * a.guidance;
    if (a.overall === 0 && b.overall === 0 && a.linear !== b.linear) return b.linear * b.guidance - a.linear * a.guidance;
    return b.guidance - a.guidance;
  });
  return failing.slice(0, count).map(({ audit }) => {
    const savings = Object.entries(audit.metricSavings ?? {})
      .filter(([, value]) => typeof value === 'number' && value > 0)
      .map(([acronym, value]) => (acronym === 'CLS' ? `${acronym} −${value!.toFixed(3)}` : `${acronym} −${Math.round(value!)} ms`));
    return { title: audit.title, displayValue: audit.displayValue ?? '', savings: savings.join(', ') };
  });
}

/** Fails loudly unless the page Lighthouse measured is the one asked for, signed in or out as asked. */
function verify(page: PageName, lhr: Result): string[] {
  const finalPath = new URL(lhr.finalDisplayedUrl).pathname.replace(/\/+$/, '') || '/';
  const items = networkItems(lhr);
  const api = items.filter((item) => new URL(item.url).pathname.startsWith('/api/'));
  const apiRequests = api.map((item) => `${new URL(item.url).pathname} ${item.statusCode}`);
  if (finalPath !== page) {
    throw new BenchError(`The ${page} audit ended on ${lhr.finalDisplayedUrl}, not ${page}; API calls: ${apiRequests.join(', ') || 'none'}`);
  }
  if (isSignedIn(page)) {
    const profile = api.find((item) => new URL(item.url).pathname === '/api/profile/');
    if (!profile || profile.statusCode !== 200) throw new BenchError(`The ${page} audit was not signed in: /api/profile/ ${profile ? `answered ${profile.statusCode}` : 'was never called'}`);
    const data = api.filter((item) => item !== profile && item.statusCode === 200);
    if (data.length === 0) throw new BenchError(`The ${page} audit loaded no dashboard data (no API call besides /api/profile/ answered 200)`);
  } else if (api.some((item) => new URL(item.url).pathname === '/api/profile/')) {
    throw new BenchError(`The ${page} audit was signed in (it called /api/profile/); it must be anonymous`);
  }
  return apiRequests;
}

/** The items an environment variable names (comma-separated), or all of them when it is not set. */
function chosen<T>(items: T[], variable: string, name: (item: T) => string): T[] {
  const value = process.env[variable];
  if (!value) return items;
  const wanted = value.split(',').map((part) => part.trim());
  const unknown = wanted.filter((part) => !items.some((item) => name(item) === part));
  if (unknown.length > 0) throw new BenchError(`${variable}: unknown ${unknown.join(', ')} (known: ${items.map(name).join(', ')})`);
  return items.filter((item) => wanted.includes(name(item)));
}

function throttlingMethod(): 'simulate' | 'devtools' {
  const method = process.env.LIGHTHOUSE_THROTTLING ?? 'simulate';
  if (method !== 'simulate' && method !== 'devtools') throw new BenchError(`LIGHTHOUSE_THROTTLING must be simulate or devtools (got "${method}")`);
  return method;
}

/** One side's runs of a page × preset so far. */
interface SideRuns {
  origin: string;
  checkout: string;
  results: Result[];
  mainThreads: Map<Result, MainThreadTime>;
  attempts: number;
}

/**
 * One scored Lighthouse run of `page` on one side, retried (up to two more attempts over all its runs)
 * when Lighthouse itself says to run again or a metric could not be computed.
 */
async function auditOnce(chrome: LaunchedChrome, side: SideRuns, page: PageName, preset: (typeof PRESETS)[number], runs: number): Promise<void> {
  const maxAttempts = runs + 2;
  for (;;) {
    const attempt = ++side.attempts;
    if (attempt > maxAttempts) throw new BenchError(`${page} (${preset.name}): only ${side.results.length} of ${runs} runs produced a score in ${maxAttempts} attempts`);
    await prepareStorage(chrome.port, side.origin, page);
    const flags: Flags = {
      port: chrome.port,
      logLevel: 'error',
      output: 'json',
      onlyCategories: ['performance'],
      throttlingMethod: throttlingMethod(),
      // Lighthouse empties the HTTP cache and these stores before every run; localStorage (the session) stays.
      disableStorageReset: false,
      clearStorageTypes: ['file_systems', 'shader_cache', 'service_workers', 'cache_storage', 'indexeddb'],
    };
    const result = await lighthouse(`${side.origin}${page}`, flags, preset.config);
    if (!result) throw new BenchError(`Lighthouse returned nothing for ${page} (${preset.name})`);
    const { lhr } = result;
    const traceDir = process.env.LIGHTHOUSE_TRACE_DIR;
    if (traceDir) {
      fs.mkdirSync(traceDir, { recursive: true });
      const name = `${side.checkout}-${slug(page)}-${preset.name}-${attempt}.trace.json`;
      fs.writeFileSync(path.join(traceDir, name), JSON.stringify(result.artifacts.Trace));
    }
    if (lhr.runtimeError?.code === 'NO_NAVSTART' || lhr.runtimeError?.code === 'PROTOCOL_TIMEOUT') {
      // The trace missed the navigation's start (seen now and then in headless Chromium), or Chromium was too starved of
      // a core on a loaded machine to answer in time: Lighthouse itself says to run again.
      console.warn(`  ${page} ${preset.name} attempt ${attempt}: ${lhr.runtimeError.code}; retrying`);
      continue;
    }
    if (lhr.runtimeError) throw new BenchError(`Lighthouse failed on ${page} (${preset.name}): ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    verify(page, lhr);
    const score = lhr.categories.performance.score;
    if (score === null) {
      // A metric could not be computed (e.g. no idle window for TTI on a busy machine): retried, not averaged in.
      const errors = Object.values(lhr.audits)
        .filter((entry) => entry.scoreDisplayMode === 'error')
        .map((entry) => `${entry.id}: ${entry.errorMessage ?? 'error'}`);
      console.warn(`  ${page} ${preset.name} attempt ${attempt}: no score (${errors.slice(0, 3).join('; ') || 'unknown reason'}); retrying`);
      continue;
    }
    console.log(`  ${side.checkout} ${page} ${preset.name} run ${side.results.length + 1}/${runs}: score ${Math.round(score * 100)} (load average ${loadAverage()})`);
    side.results.push(lhr);
    side.mainThreads.set(lhr, mainThreadTime(result.artifacts.Trace as unknown as { traceEvents: TraceEvent[] }, lhr, lhr.configSettings.throttling.cpuSlowdownMultiplier ?? 1));
    return;
  }
}

/**
 * `runs` runs of a page × preset on every side, the sides taking turns run by run (before, after,
 * before, after, …): on a shared machine whose load moves from minute to minute, both sides see
 * the same stretches of it. Each side's median run is reported.
 */
async function audit(chrome: LaunchedChrome, sides: { label: string; origin: string }[], page: PageName, preset: (typeof PRESETS)[number], runs: number): Promise<CaseResult[]> {
  const all: SideRuns[] = sides.map((side) => ({ origin: side.origin, checkout: side.label, results: [], mainThreads: new Map(), attempts: 0 }));
  for (let round = 0; round < runs; round++) for (const side of all) await auditOnce(chrome, side, page, preset, runs);
  return all.map(({ checkout, results, mainThreads }) => {
    const lhr = runs > 1 ? computeMedianRun(results) : results[0]!;
    const reportDir = process.env.LIGHTHOUSE_REPORT_DIR;
    if (reportDir) {
      fs.mkdirSync(reportDir, { recursive: true });
      const base = `${checkout}-${slug(page)}-${preset.name}`;
      fs.writeFileSync(path.join(reportDir, `${base}.html`), generateReport(lhr, 'html'));
      fs.writeFileSync(path.join(reportDir, `${base}.json`), JSON.stringify(lhr));
    }
    return {
      page,
      preset: preset.name,
      checkout,
      lhr,
      scores: results.map((result) => Math.round((result.categories.performance.score ?? 0) * 100)),
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      fcp: numeric(lhr, 'first-contentful-paint'),
      lcp: numeric(lhr, 'largest-contentful-paint'),
      tbt: numeric(lhr, 'total-blocking-time'),
      cls: numeric(lhr, 'cumulative-layout-shift'),
      si: numeric(lhr, 'speed-index'),
      jsTransfer: jsTransferSize(lhr),
      totalTransfer: numeric(lhr, 'total-byte-weight'),
      apiRequests: verify(page, lhr),
      lcpElement: lcpElement(lhr),
      top: topDiagnostics(lhr, 3),
      mainThread: mainThreads.get(lhr)!,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Report

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

function resultsTable(results: CaseResult[]): string {
  const header = ['Page', 'Preset', 'Code', 'Score', 'FCP', 'LCP', 'TBT', 'CLS', 'Speed Index', 'JS transfer', 'Total transfer', 'Scores of all runs'];
  const rows = results.map((result) => [
    `\`${result.page}\``,
    result.preset,
    result.checkout,
    String(result.score),
    seconds(result.fcp),
    seconds(result.lcp),
    `${Math.round(result.tbt)} ms`,
    result.cls.toFixed(3),
    seconds(result.si),
    kib(result.jsTransfer),
    kib(result.totalTransfer),
    result.scores.join(', '),
  ]);
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

function mainThreadTable(results: CaseResult[]): string {
  const header = ['Page', 'Preset', 'Code', 'Task time', 'Thread CPU', 'CPU share', 'Blocking from task time', 'Blocking from thread CPU'];
  const rows = results.map(({ page, preset, checkout, mainThread: time }) => [
    `\`${page}\``,
    preset,
    checkout,
    `${Math.round(time.wallMs)} ms`,
    `${Math.round(time.cpuMs)} ms`,
    `${Math.round((100 * time.cpuMs) / Math.max(time.wallMs, 1))} %`,
    `${Math.round(time.blockingFromWallMs)} ms`,
    `${Math.round(time.blockingFromCpuMs)} ms`,
  ]);
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

async function responseCompression(origin: string, webDist: string): Promise<string> {
  const script = fs.readdirSync(path.join(webDist, 'assets')).find((name) => /^index-.*\.js$/.test(name));
  if (!script) return 'unknown (no assets/index-*.js)';
  const response = await fetch(`${origin}/assets/${script}`, { headers: { 'Accept-Encoding': 'br, gzip, deflate' } });
  await response.arrayBuffer();
  return response.headers.get('content-encoding') ?? 'none';
}

function localDate(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The settings of this run that change what is measured, as they would be typed before the command. */
function commandEnv(): string {
  const names = ['BENCH_BEFORE_DIR', 'LIGHTHOUSE_RUNS', 'LIGHTHOUSE_PAGES', 'LIGHTHOUSE_PRESETS', 'LIGHTHOUSE_THROTTLING', 'LIGHTHOUSE_WARMUP', 'WEB_DIST_DIR', 'CHROME_PATH'];
  const set = names.filter((name) => process.env[name]).map((name) => `${name}=${process.env[name]}`);
  if (process.env.DATABASE_URL) set.push('DATABASE_URL=…');
  return set.length > 0 ? `${set.join(' ')} ` : '';
}

const loadAverage = () => os.loadavg()[0].toFixed(2);

function markdown(results: CaseResult[], facts: { date: Date; chromeVersion: string; database: string; compression: string; runs: number; loadAtStart: string; webDist: string; warm: boolean; before?: string }): string {
  const first = results[0].lhr;
  const cpus = os.cpus();
  const throttling = (preset: PresetName) => {
    const settings = results.find((result) => result.preset === preset)?.lhr.configSettings;
    if (!settings) return '';
    const t = settings.throttling;
    const network =
      settings.throttlingMethod === 'devtools'
        ? `request latency ${t.requestLatencyMs} ms, ${((t.downloadThroughputKbps ?? 0) / 1024).toFixed(1)} Mbps down`
        : `RTT ${t.rttMs} ms, ${((t.throughputKbps ?? 0) / 1024).toFixed(1)} Mbps`;
    return `${preset}: ${settings.formFactor}, ${settings.screenEmulation.width}×${settings.screenEmulation.height}, ${settings.throttlingMethod} throttling (${network}, CPU ×${t.cpuSlowdownMultiplier})`;
  };
  const lines = [
    `# Lighthouse performance — ${localDate(facts.date)}`,
    '',
    `Command: \`npm run build && ${commandEnv()}npx tsx bench/lighthouse/lighthouse.ts\``,
    '',
    `- Date: ${facts.date.toISOString()}`,
    `- Machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM, ${os.type()} ${os.release()} ${os.arch()}; 1-minute load average ${facts.loadAtStart} at the start, ${loadAverage()} at the end (TBT is the metric a busy machine inflates most)`,
    `- Node ${process.version}, Chromium ${facts.chromeVersion}, Lighthouse ${first.lighthouseVersion} (benchmarkIndex ${first.environment.benchmarkIndex})`,
    `- Server: the built app (${path.relative(ROOT, facts.webDist) || '.'}) served by apps/server, ${facts.database}, demo company seeded; response compression of JS: ${facts.compression}`,
    ...(facts.before
      ? [`- Side by side: "before" is ${facts.before} (its own build, server and fresh embedded database), "after" this checkout; on the same Chromium, the two take turns run by run (before, after, before, …), so both see the same machine load.`]
      : []),
    '- The machine is shared with other helpers building and testing at the same time: the load average above is theirs as much as ours, and moves TBT (and so the score) from run to run.',
    `- Presets: ${throttling('mobile')}; ${throttling('desktop')}`,
    `- ${facts.runs} run(s) per page × preset; the median run (Lighthouse computeMedianRun: closest to the median FCP and TTI) is reported. Cold HTTP cache on every run. ${facts.warm ? 'The server had served one untimed load of each page first (LIGHTHOUSE_WARMUP=0 skips it).' : 'No warm-up: the first run is the server\'s first load since its start (LIGHTHOUSE_WARMUP=0).'}`,
    `- \`/\` and \`/login\`: anonymous first visit (empty localStorage). ${Object.entries(ACCOUNTS).map(([page, account]) => `\`${page}\` and its screens: ${account.email}`).join(', ')}: signed in via the API, the session put into localStorage before the load.`,
    '',
    '## Results',
    '',
    resultsTable(results),
    '',
    '## The main thread after the first paint (median run, from its trace)',
    '',
    'Lighthouse scales each task\'s observed duration. Thread CPU is the part of it the page\'s main thread was on a core; the rest it waited',
    'for one (Chromium\'s compositor and browser process, the server and Lighthouse share the cores). Blocking is Σ max(0, CPU× × task − 50 ms).',
    '',
    mainThreadTable(results),
    '',
    '## Top 3 diagnostics per page (the Lighthouse report\'s order)',
    '',
  ];
  for (const result of results) {
    lines.push(`### \`${result.page}\` — ${result.preset}, ${result.checkout}`, '');
    if (result.top.length === 0) lines.push('- none');
    for (const item of result.top) {
      const extra = [item.displayValue, item.savings && `est. savings ${item.savings}`].filter(Boolean).join('; ');
      lines.push(`- ${item.title}${extra ? ` — ${extra}` : ''}`);
    }
    lines.push('', `LCP element: ${result.lcpElement}`, '', `API calls during the load: ${result.apiRequests.join(', ') || 'none'}`, '');
    const warnings = result.lhr.runWarnings.filter(Boolean);
    if (warnings.length > 0) lines.push(`Lighthouse warnings: ${warnings.join(' / ')}`, '');
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const webDist = path.resolve(process.env.WEB_DIST_DIR ?? path.join(ROOT, 'apps/web/dist'));
  throttlingMethod(); // a bad value fails before anything starts
  if (!fs.existsSync(path.join(webDist, 'index.html'))) {
    throw new BenchError(`No built web app at ${webDist} (index.html missing): run npm run build first, or set WEB_DIST_DIR.`);
  }
  const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
  if (!Number.isInteger(runs) || runs < 1) throw new BenchError(`LIGHTHOUSE_RUNS must be a whole number above 0 (got "${process.env.LIGHTHOUSE_RUNS}")`);
  const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(chromePath)) throw new BenchError(`No Chromium at ${chromePath}; set CHROME_PATH`);

  const watchdog = new Watchdog();
  const cleanups: (() => Promise<void>)[] = [async () => watchdog.close()];
  const cleanUp = async () => {
    while (cleanups.length > 0) await cleanups.pop()!().catch((error: unknown) => console.error('Cleanup failed:', error));
  };
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping the server and Chromium…`);
    void cleanUp().finally(() => process.exit(130));
  };
  // `on`, not `once`: Ctrl+C reaches npm, tsx and this process, and tsx relays it again; a second
  // signal must not kill the process halfway through stopping the server.
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    const date = new Date();
    const loadAtStart = loadAverage();
    if (os.loadavg()[0] > os.cpus().length) console.warn(`The machine is busy (load average ${loadAtStart} on ${os.cpus().length} cores): TBT in particular will be inflated.`);
    console.log('Starting the server…');
    const server = await startLighthouseServer(webDist, watchdog);
    cleanups.push(server.stop);
    console.log(`Server at ${server.origin} (${server.database}).`);
    const sides: { label: string; origin: string }[] = [];
    const before = beforeCheckout();
    if (before) {
      const beforeDist = path.join(before.root, 'apps/web/dist');
      if (!fs.existsSync(path.join(beforeDist, 'index.html'))) throw new BenchError(`No built web app at ${beforeDist}: build BENCH_BEFORE_DIR first`);
      const beforeServer = await startLighthouseServer(beforeDist, watchdog, before);
      cleanups.push(beforeServer.stop);
      console.log(`Before (${before.root}) at ${beforeServer.origin}.`);
      sides.push({ label: before.label, origin: beforeServer.origin });
    }
    sides.push({ label: thisCheckout.label, origin: server.origin });

    const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-lighthouse-chromium-'));
    watchdog.watchDir(profileDir);
    const removeProfile = async () => {
      fs.rmSync(profileDir, { recursive: true, force: true, maxRetries: 10 });
      watchdog.unwatchDir(profileDir);
    };
    cleanups.push(removeProfile);
    // chrome-launcher starts Chromium in a process group of its own and kills that group.
    const chrome = await launch({ chromePath, chromeFlags: CHROME_FLAGS, userDataDir: profileDir, logLevel: 'silent' });
    watchdog.watchGroup(chrome.pid);
    cleanups.push(async () => {
      const closed = chrome.process.exitCode === null ? once(chrome.process, 'close') : Promise.resolve();
      chrome.kill();
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      watchdog.unwatchGroup(chrome.pid);
    });
    const versionInfo = (await (await fetch(`http://127.0.0.1:${chrome.port}/json/version`)).json()) as { Browser: string };
    const chromeVersion = versionInfo.Browser.replace(/^[^/]*\//, '');
    console.log(`Chromium ${chromeVersion}; ${runs} run(s) per page × preset.`);

    const warm = process.env.LIGHTHOUSE_WARMUP !== '0';
    if (warm) for (const side of sides) await warmUp(chrome.port, side.origin, chosen(PAGES, 'LIGHTHOUSE_PAGES', (item) => item));
    const results: CaseResult[] = [];
    for (const preset of chosen(PRESETS, 'LIGHTHOUSE_PRESETS', (item) => item.name)) {
      for (const page of chosen(PAGES, 'LIGHTHOUSE_PAGES', (item) => item)) {
        results.push(...(await audit(chrome, sides, page, preset, runs)));
      }
    }
    const compression = await responseCompression(server.origin, webDist);

    console.log('');
    console.log(resultsTable(results));
    const report = markdown(results, { date, chromeVersion, database: server.database, compression, runs, loadAtStart, webDist, warm, before: before?.root });
    const resultsDir = path.resolve(process.env.LIGHTHOUSE_RESULTS_DIR ?? path.join(ROOT, 'bench/results'));
    fs.mkdirSync(resultsDir, { recursive: true });
    const file = path.join(resultsDir, 'lighthouse.md');
    fs.writeFileSync(file, `${report}\n`);
    console.log(`\nWrote ${path.relative(process.cwd(), file)}`);
  } finally {
    await cleanUp();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof BenchError ? `lighthouse bench: ${error.message}` : error);
  process.exitCode = 1;
});
