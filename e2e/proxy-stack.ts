/**
 * SiteBoard as a production runs it: Debian's nginx with deploy/nginx.conf in front of two compiled
 * instances on one PostgreSQL database. Used by the reverse-proxy journey and the rolling-restart
 * benchmark (bench/proxy/rolling-restart.ts). nginx runs as the current user, with its pid, logs,
 * temporary files and cache in a folder of the caller's; the ports are swapped for the caller's.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDatabaseHop, type DatabaseHop } from '../apps/server/src/test/database-hop';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NGINX = '/usr/sbin/nginx';
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const JWT_SECRET = 'proxy-stack-secret-that-is-long-enough-for-hs256';
const READY_TIMEOUT_MS = 60_000;

export interface StackPorts {
  nginx: number;
  instances: [number, number];
  metrics: [number, number];
}

/** Five ports from `base` (this developer's range by default): nginx, the two instances, their metrics. */
export function stackPorts(base: number): StackPorts {
  return { nginx: base, instances: [base + 1, base + 2], metrics: [base + 3, base + 4] };
}

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = READY_TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A new PostgreSQL database for the stack, dropped by `drop`. */
export function createDatabase(): { url: string; drop(): void } {
  const name = `siteboard_proxy_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  execFileSync('psql', [ADMIN_URL, '-qc', `create database ${name}`]);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => execFileSync('psql', [ADMIN_URL, '-qc', `drop database if exists ${name} with (force)`]) };
}

/** Node's own arguments in the server package's `npm start` (of the checkout at `root`): every way of starting a compiled server passes them. */
export function serverStartNodeArgs(root: string = repoRoot): string[] {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(root, 'apps/server/package.json'), 'utf8')) as { scripts: Record<string, string> };
  return (scripts.start ?? '').split(' ').filter((word) => word.startsWith('--'));
}

/** One compiled instance (`node apps/server/dist/server.js`, as npm start runs it), startable again after a stop. */
export class Instance {
  private child: ChildProcess | undefined;
  private lines: string[] = [];
  private exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | undefined;

  constructor(
    readonly port: number,
    readonly metricsPort: number,
    private readonly env: Record<string, string>,
  ) {}

  get origin() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts the process and resolves once GET /api/ready/ answers 200 on its own port. */
  async start() {
    const env = { ...process.env, ...this.env, PORT: String(this.port), METRICS_PORT: String(this.metricsPort), HOST: '127.0.0.1' };
    const child = spawn(process.execPath, [...serverStartNodeArgs(), 'apps/server/dist/server.js'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    for (const stream of [child.stdout, child.stderr]) {
      let partial = '';
      stream!.setEncoding('utf8');
      stream!.on('data', (chunk: string) => {
        const parts = (partial + chunk).split('\n');
        partial = parts.pop()!;
        this.lines.push(...parts.filter(Boolean));
      });
    }
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    let gone = false;
    void this.exited.then(() => (gone = true));
    await until(async () => {
      if (gone) throw new Error(`the instance on ${this.port} exited while starting (${JSON.stringify(await this.exited)}):\n${this.lines.slice(-20).join('\n')}`);
      return fetch(`${this.origin}/api/ready/`).then((response) => response.status === 200, () => false);
    }, `the instance on ${this.port} getting ready`);
  }

  /** SIGTERM, as systemd stops it: resolves with how it exited. */
  async stop() {
    const child = this.child!;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const exit = await this.exited!;
    this.child = undefined;
    return exit;
  }

  kill() {
    this.child?.kill('SIGKILL');
  }

  /** Another instance on the same ports with `extra` in its environment, to start once this one has stopped. */
  withEnv(extra: Record<string, string>): Instance {
    return new Instance(this.port, this.metricsPort, { ...this.env, ...extra });
  }

  /** Whether the process has ended (by itself or stopped). */
  get ended(): boolean {
    return this.child === undefined || this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /** How the process ended, once it has. */
  exit() {
    return this.exited!;
  }

  /** What the instance logged (JSON lines), parsed. */
  log(): Record<string, unknown>[] {
    return this.lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  async metricsText(): Promise<string> {
    return (await fetch(`http://127.0.0.1:${this.metricsPort}/metrics`)).text();
  }
}

/**
 * deploy/nginx.conf for a test: its listen port and upstream ports swapped for `ports`, its pid,
 * logs, temporary files and cache moved into `dir`, and the current user's. Each swap must find
 * what it replaces, so a change to the committed file that the test no longer covers fails here.
 */
export function nginxConfigFor(ports: StackPorts, dir: string, committed = fs.readFileSync(path.join(repoRoot, 'deploy/nginx.conf'), 'utf8')): string {
  const swaps: [RegExp, string][] = [
    [/^user www-data;$/m, `user ${os.userInfo().username};`],
    [/^pid \/run\/nginx\.pid;$/m, `pid ${dir}/nginx.pid;`],
    [/\/var\/log\/nginx\//g, `${dir}/`],
    [/\/var\/lib\/nginx\//g, `${dir}/`],
    [/\/var\/cache\/nginx\/siteboard/g, `${dir}/cache`],
    [/listen 8080;/g, `listen 127.0.0.1:${ports.nginx};`],
    [/127\.0\.0\.1:3001/g, `127.0.0.1:${ports.instances[0]}`],
    [/127\.0\.0\.1:3002/g, `127.0.0.1:${ports.instances[1]}`],
  ];
  let config = committed;
  for (const [pattern, replacement] of swaps) {
    if (!pattern.test(config)) throw new Error(`deploy/nginx.conf no longer has ${pattern}`);
    pattern.lastIndex = 0;
    config = config.replace(pattern, replacement);
  }
  return config;
}

export interface Proxy {
  url: string;
  /** nginx's access log so far, one line per request. */
  accessLog(): string[];
  stop(): Promise<void>;
}

/** Debian's nginx with `config`, in the foreground, as the current user; resolves once it answers. */
export async function startNginx(config: string, dir: string, port: number): Promise<Proxy> {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'nginx.conf'), config);
  execFileSync(NGINX, ['-t', '-q', '-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')]);
  const child = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log'), '-g', 'daemon off;'], { stdio: 'inherit' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  await until(() => fetch(`${url}/api/health/live/`).then(() => true, () => false), 'nginx answering');
  const accessLog = path.join(dir, 'siteboard.access.log');
  return {
    url,
    accessLog: () => (fs.existsSync(accessLog) ? fs.readFileSync(accessLog, 'utf8').split('\n').filter(Boolean) : []),
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One line of the access log: which instances nginx asked (a retry names two), what they and nginx answered. */
export function parseAccessLine(line: string) {
  const match = /" (\d{3}) \d+ rt=\S+ upstream=(.*) upstream_status=(.*) request_id=(\w+)$/.exec(line);
  if (!match) throw new Error(`Not a line of the siteboard log format: ${line}`);
  return { status: Number(match[1]), upstreams: match[2]!.split(', '), upstreamStatuses: match[3]!.split(', '), requestId: match[4]! };
}

export interface Traffic {
  sent(): number;
  failures(): string[];
  stop(): Promise<void>;
}

/**
 * Steady traffic through `url`, as signed-in people make it: `loops` clients each alternating a
 * list read and a write (a new project), one after the other with a short pause. A request fails
 * when it errs or answers anything but 200/201.
 */
export function steadyTraffic(url: string, token: string, managerId: number, loops = 4): Traffic {
  let stopped = false;
  let sent = 0;
  const failures: string[] = [];
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const clients = Array.from({ length: loops }, async (_, client) => {
    for (let n = 0; !stopped; n++) {
      const write = n % 2 === 1;
      const request = write
        ? fetch(`${url}/api/projects/`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ name: `Traffic ${client}-${n}-${Date.now()}`, start_date: '2026-12-01', end_date: '2027-01-31', status: 'planned', manager_id: managerId }),
          })
        : fetch(`${url}/api/projects/?limit=5`, { headers });
      sent++;
      const outcome = await request.then(
        async (response) => (response.status === (write ? 201 : 200) ? undefined : `${write ? 'POST' : 'GET'} ${response.status}: ${(await response.text()).slice(0, 200)}`),
        (error: Error) => `${write ? 'POST' : 'GET'} failed: ${error.message}`,
      );
      if (outcome) failures.push(outcome);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });
  return {
    sent: () => sent,
    failures: () => failures,
    async stop() {
      stopped = true;
      await Promise.all(clients);
    },
  };
}

/**
 * A rolling restart: each instance in turn gets SIGTERM, exits, starts again, and is waited for
 * until nginx sends it traffic again (its access log names it with a 2xx), before the next one
 * goes. Answers how each instance exited.
 */
export async function rollingRestart(proxy: Proxy, instances: Instance[]) {
  const exits = [];
  for (const instance of instances) {
    exits.push(await instance.stop());
    await instance.start();
    const mark = proxy.accessLog().length;
    await until(
      () =>
        proxy
          .accessLog()
          .slice(mark)
          .map(parseAccessLine)
          .some((line) => line.upstreams.at(-1) === `127.0.0.1:${instance.port}` && line.upstreamStatuses.at(-1)!.startsWith('2')),
      `nginx sending traffic to the restarted instance on ${instance.port}`,
    );
  }
  return exits;
}

/** The demo company's people signed in through `url`: an admin's token and a manager's id. */
export async function signInAdmin(url: string, from?: { companyName: string; companyPassword: string; email: string; password: string }) {
  const who = from ?? { companyName: 'SiteBoard Demo', companyPassword: 'demo-company', email: 'admin@example.com', password: 'demo-password' };
  const company = await fetch(`${url}/api/verify-company-password/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ company_name: who.companyName, password: who.companyPassword }) });
  const { company_id } = (await company.json()) as { company_id: number };
  const tokens = await fetch(`${url}/api/token/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: who.email, password: who.password, role: 'admin', company_id }) });
  if (tokens.status !== 200) throw new Error(`Signing in through ${url} answered ${tokens.status}`);
  const token = ((await tokens.json()) as { access: string }).access;
  const managers = (await (await fetch(`${url}/api/users/?role=manager&limit=1`, { headers: { authorization: `Bearer ${token}` } })).json()) as { id: number }[];
  return { token, managerId: managers[0]!.id };
}

/** Seeds the demo company into the database (`npm run seed:demo`), migrating it first. */
export function seedDemo(databaseUrl: string) {
  execFileSync('npm', ['run', '--silent', 'seed:demo'], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: 'ignore' });
}

/**
 * The whole stack: a new database with the demo company, two instances (TRUST_PROXY=1, as behind
 * nginx) reaching it through a hop that can take it away (`database`), nginx in front. `stop` ends
 * everything and drops the database.
 */
export async function startProxyStack(ports: StackPorts, options: { nginxConfig?: (config: string) => string } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-proxy-'));
  const database = createDatabase();
  const instances: Instance[] = [];
  let proxy: Proxy | undefined;
  let hop: DatabaseHop | undefined;
  const stop = async () => {
    await proxy?.stop();
    hop?.mend();
    await Promise.all(instances.map((instance) => instance.stop().catch(() => instance.kill())));
    await hop?.close();
    database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    seedDemo(database.url);
    hop = await startDatabaseHop(database.url);
    const env = { DATABASE_URL: hop.url, JWT_SECRET, TRUST_PROXY: '1', LOG_LEVEL: 'info', PUBLIC_COMPANY_LIST: 'false' };
    for (const [index, port] of ports.instances.entries()) instances.push(new Instance(port, ports.metrics[index]!, env));
    await Promise.all(instances.map((instance) => instance.start()));
    const config = nginxConfigFor(ports, dir);
    proxy = await startNginx(options.nginxConfig ? options.nginxConfig(config) : config, dir, ports.nginx);
  } catch (error) {
    await stop();
    throw error;
  }
  return { proxy, instances, databaseUrl: database.url, database: hop!, stop };
}
