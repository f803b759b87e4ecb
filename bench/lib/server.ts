/**
 * The one way the benchmarks start a SiteBoard server: a free port, the server as its own process
 * (in a process group of its own, so a stop reaches whatever it started), ready when
 * /api/health/ answers, stopped by SIGTERM (SIGKILL after 15 s).
 *
 * The server is this checkout's compiled build (`node apps/server/dist/server.js`, what `npm start`
 * runs; built first by `ensureServerBuilt`), or another checkout's: BENCH_BEFORE_DIR names a copy
 * of an earlier commit (e.g. `git archive <commit> | tar -x -C /tmp/before`, with node_modules
 * linked) to measure side by side with this one; a checkout without a compiled build runs as it
 * did then, through tsx.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverStartNodeArgs } from '../../e2e/proxy-stack';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const JWT_SECRET = 'bench-secret-that-is-long-enough-for-hs256-signing';

/** Ports other local services of this machine use; a bench server never takes them. */
const AVOIDED_PORTS = new Set([3000, 4173, 4190, 5432, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080]);

/** A port nothing listens on now (the kernel's choice), or `preferred` when it is free. */
export async function freePort(preferred?: number): Promise<number> {
  if (preferred !== undefined && (await portIsFree(preferred))) return preferred;
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const probe = net.createServer();
      probe.once('error', reject);
      probe.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
        const { port: chosen } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(chosen));
      });
    });
    if (!AVOIDED_PORTS.has(port)) return port;
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: '0.0.0.0', exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** Which code a server runs: this checkout (compiled) or an earlier one (BENCH_BEFORE_DIR). */
export interface Checkout {
  label: string;
  root: string;
  /** Settings its server runs with besides the bench's own (a variant of an earlier checkout). */
  env?: Record<string, string>;
}
export const thisCheckout: Checkout = { label: 'after', root: repoRoot };
export function beforeCheckout(): Checkout | undefined {
  const root = process.env.BENCH_BEFORE_DIR;
  return root ? { label: 'before', root: path.resolve(root) } : undefined;
}

/** The checkouts a side-by-side bench measures: the earlier one first (with BENCH_BEFORE_DIR), then this one. */
export function checkoutsToMeasure(): Checkout[] {
  const before = beforeCheckout();
  return before ? [before, thisCheckout] : [thisCheckout];
}

/**
 * The earlier checkout once more for each entry of BENCH_BEFORE_VARIANTS (`name:KEY=VALUE,…;…`, as
 * BENCH_VARIANTS), with those settings: e.g. `nocache:ANSWER_CACHE=false` measures an old setting
 * switched off beside it switched on, in the same run.
 */
export function beforeVariants(before: Checkout, spec = process.env.BENCH_BEFORE_VARIANTS ?? ''): Checkout[] {
  return benchVariants(spec).map((variant) => ({ label: `${before.label} ${variant.label}`, root: before.root, env: variant.env }));
}

/** Node's own arguments for a checkout's server: BENCH_NODE_ARGS (space-separated, e.g. `--cpu-prof`) for this one, none for an earlier one. */
export function benchNodeArgs(checkout: Checkout): string[] {
  return checkout === thisCheckout ? (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean) : [];
}

/** More runs of this checkout with other settings (BENCH_VARIANTS). */
export interface Variant {
  label: string;
  env: Record<string, string>;
  /** Node's own arguments (NODE_ARGS=… in the spec, space-separated). */
  nodeArgs: string[];
}

/**
 * BENCH_VARIANTS: `name:KEY=VALUE,KEY=VALUE;…`, each a run of this checkout with that environment;
 * NODE_ARGS=… gives node's own arguments, space-separated (e.g. `semi4:NODE_ARGS=--max-semi-space-size=4`).
 */
export function benchVariants(spec = process.env.BENCH_VARIANTS ?? ''): Variant[] {
  return spec
    .split(';')
    .filter(Boolean)
    .map((entry) => {
      const [label, settings = ''] = entry.split(':');
      const env = Object.fromEntries(settings.split(',').filter(Boolean).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
      const { NODE_ARGS: nodeArgs = '', ...rest } = env;
      return { label: label!, env: rest, nodeArgs: nodeArgs.split(' ').filter(Boolean) };
    });
}

/** Compiles the server of this checkout (what `npm start` runs); an earlier checkout without a build step needs none. */
export function ensureServerBuilt(checkout: Checkout = thisCheckout) {
  const serverDir = path.join(checkout.root, 'apps/server');
  if (!fs.existsSync(path.join(serverDir, 'build.mjs'))) return;
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: serverDir, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`Building the server in ${serverDir} failed`);
}

/** Node's own arguments in a checkout's `npm start` of the server package (e.g. its young generation's size). */
export function startNodeArgs(checkout: Checkout = thisCheckout): string[] {
  return serverStartNodeArgs(checkout.root);
}

function serverCommand(checkout: Checkout, nodeArgs: string[]): string[] {
  const compiled = path.join(checkout.root, 'apps/server/dist/server.js');
  return fs.existsSync(path.join(checkout.root, 'apps/server/build.mjs'))
    ? [process.execPath, ...startNodeArgs(checkout), ...nodeArgs, compiled]
    : [process.execPath, ...nodeArgs, '--import', 'tsx', path.join(checkout.root, 'apps/server/src/server.ts')];
}

export interface ServerOptions {
  /** DATABASE_URL or DATA_DIR and any other setting (over the checkout's own); PORT, HOST, JWT_SECRET and LOG_LEVEL have defaults. */
  env: Record<string, string | undefined>;
  checkout?: Checkout;
  /** A port to use when it is free (else any free one). */
  port?: number;
  /** Extra arguments for node (e.g. --inspect=…). */
  nodeArgs?: string[];
  /** Where the server's output goes: 'inherit', or collected (see `output`). */
  stdio?: 'inherit' | 'collect';
  /** Give up on /api/health/ after this long. */
  readyTimeoutMs?: number;
}

export interface RunningServer {
  child: ChildProcess;
  pid: number;
  port: number;
  origin: string;
  /** Milliseconds from spawning the process to its first healthy answer. */
  startMs: number;
  /** The output collected so far (stdio: 'collect'), newest last. */
  output(): string[];
  /** Resident memory of the server process and everything it started, in KiB. */
  rssKiB(): number;
  stop(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const port = await freePort(options.port);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    JWT_SECRET,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    // The sweeps would land at random moments inside the measured runs.
    SWEEP_INTERVAL_SECONDS: '86400',
    // The benches find the seeded companies by name in the company list.
    PUBLIC_COMPANY_LIST: 'true',
  };
  delete env.DATABASE_URL;
  delete env.DATA_DIR;
  const checkout = options.checkout ?? thisCheckout;
  Object.assign(env, checkout.env, options.env);
  const [command, ...args] = serverCommand(checkout, options.nodeArgs ?? []);
  const started = performance.now();
  const child = spawn(command!, args, { cwd: repoRoot, env, detached: true, stdio: options.stdio === 'collect' ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'] });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      lines.push(...chunk.split('\n').filter((line) => line.trim()));
      if (lines.length > 200) lines.splice(0, lines.length - 200);
    });
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const stop = async () => {
    if (gone()) return;
    const group = -child.pid!;
    process.kill(group, 'SIGTERM');
    const timer = setTimeout(() => {
      console.warn('The server did not stop within 15 s of SIGTERM; sending SIGKILL.');
      process.kill(group, 'SIGKILL');
    }, 15_000);
    await exited;
    clearTimeout(timer);
  };
  const origin = `http://127.0.0.1:${port}`;
  const deadline = started + (options.readyTimeoutMs ?? 120_000);
  for (;;) {
    if (gone()) throw new Error(`The server exited while starting:\n${lines.slice(-20).join('\n')}`);
    const healthy = await fetch(`${origin}/api/health/`).then((response) => response.ok, () => false);
    if (healthy) break;
    if (performance.now() > deadline) {
      await stop();
      throw new Error(`The server did not answer ${origin}/api/health/ in time:\n${lines.slice(-20).join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { child, pid: child.pid!, port, origin, startMs: performance.now() - started, output: () => lines, rssKiB: () => treeRssKiB(child.pid!), stop };
}

/** VmRSS of a process and its descendants (Linux /proc), in KiB. */
export function treeRssKiB(pid: number): number {
  try {
    const rss = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    const children = fs.readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
    return rss + children.reduce((sum, child) => sum + treeRssKiB(child), 0);
  } catch {
    return 0;
  }
}
