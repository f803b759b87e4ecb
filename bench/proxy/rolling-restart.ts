/**
 * `npm run bench:rolling`: rolling restarts under steady traffic, counting the requests that fail.
 * One PostgreSQL database, two compiled instances, Debian's nginx in front (e2e/proxy-stack.ts).
 * Each round, side by side on the same instances:
 *   - nginx with deploy/nginx.conf as committed: both instances restarted one after the other;
 *   - nginx without `non_idempotent` in proxy_next_upstream (a POST or PATCH already sent to an
 *     instance is not tried on the other): the same restarts;
 *   - no proxy: the traffic straight to one instance while it restarts (what nginx saves).
 * Options: BENCH_ROUNDS (3), BENCH_PORT (first of five ports, 4550), BENCH_LOOPS (clients, 4).
 * Writes bench/results/rolling-restart.md. Needs `npm run build` first, PostgreSQL and /usr/sbin/nginx.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Instance, nginxConfigFor, parseAccessLine, repoRoot, rollingRestart, signInAdmin, stackPorts, startNginx, startProxyStack, steadyTraffic, type Proxy } from '../../e2e/proxy-stack';

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const loops = Number(process.env.BENCH_LOOPS ?? 4);
const ports = stackPorts(Number(process.env.BENCH_PORT ?? 4550));

interface Tally {
  sent: number;
  failed: number;
  retried: number;
  restarts: number;
  ms: number;
  examples: string[];
  /** What nginx's error log said about the instances, by message. */
  upstreamErrors: Map<string, number>;
}
const tallies = new Map<string, Tally>();
const tally = (name: string) => tallies.get(name) ?? tallies.set(name, { sent: 0, failed: 0, retried: 0, restarts: 0, ms: 0, examples: [], upstreamErrors: new Map() }).get(name)!;

/** nginx's error-log lines about its instances, without times, connection numbers and addresses: what went wrong, by kind. */
function upstreamErrors(log: string): string[] {
  return log
    .split('\n')
    .filter((line) => line.includes('upstream'))
    .map((line) => /\*\d+ (.*?)(?:, client:|$)/.exec(line)?.[1] ?? line);
}

const withoutNonIdempotent = (config: string) => {
  if (!config.includes(' non_idempotent;')) throw new Error('deploy/nginx.conf no longer retries non-idempotent requests: this variant means nothing');
  return config.replace(' non_idempotent;', ';');
};

const stack = await startProxyStack(ports);
const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-bench-nginx-'));
let proxy: Proxy | undefined = stack.proxy;
try {
  const { token, managerId } = await signInAdmin(stack.proxy.url);
  const variants: { name: string; config?: (config: string) => string }[] = [
    { name: 'nginx, deploy/nginx.conf', config: (config) => config },
    { name: 'nginx without non_idempotent', config: withoutNonIdempotent },
    { name: 'no proxy (straight to the instance)' },
  ];
  for (let round = 1; round <= rounds; round++) {
    for (const variant of variants) {
      await proxy?.stop();
      proxy = undefined;
      const entry = tally(variant.name);
      let target: string;
      let restarted: Instance[];
      if (variant.config) {
        proxy = await startNginx(variant.config(nginxConfigFor(ports, configDir)), configDir, ports.nginx);
        target = proxy.url;
        restarted = stack.instances;
      } else {
        target = stack.instances[0]!.origin;
        restarted = [stack.instances[0]!];
      }
      const errorLog = path.join(configDir, 'error.log');
      const errorMark = fs.existsSync(errorLog) ? fs.readFileSync(errorLog, 'utf8').length : 0;
      const traffic = steadyTraffic(target, token, managerId, loops);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const started = performance.now();
      const mark = proxy?.accessLog().length ?? 0;
      if (proxy) {
        await rollingRestart(proxy, restarted);
      } else {
        await restarted[0]!.stop();
        await restarted[0]!.start();
      }
      entry.ms += performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 500));
      await traffic.stop();
      entry.sent += traffic.sent();
      entry.failed += traffic.failures().length;
      entry.restarts += restarted.length;
      entry.examples.push(...traffic.failures().slice(0, 3 - entry.examples.length).map((failure) => failure.replace(/\s+/g, ' ').slice(0, 160)));
      if (proxy) {
        for (const message of upstreamErrors(fs.readFileSync(errorLog, 'utf8').slice(errorMark))) entry.upstreamErrors.set(message, (entry.upstreamErrors.get(message) ?? 0) + 1);
      }
      entry.retried += (proxy?.accessLog().slice(mark) ?? []).map(parseAccessLine).filter((line) => line.upstreams.length > 1).length;
      console.log(`round ${round}, ${variant.name}: ${traffic.failures().length} of ${traffic.sent()} requests failed`);
    }
  }
} finally {
  await proxy?.stop();
  await stack.stop();
  fs.rmSync(configDir, { recursive: true, force: true });
}

const reference = tallies.get('nginx, deploy/nginx.conf')!;
const rows = [...tallies].map(
  ([name, entry]) =>
    `| ${name} | ${entry.restarts} | ${entry.sent} | **${entry.failed}** | ${((entry.failed / entry.sent) * 100).toFixed(2)} % | ${entry.retried} | ${(entry.ms / entry.restarts / 1000).toFixed(1)} s | ${(entry.sent / reference.sent).toFixed(2)} |`,
);
const examples = [...tallies].flatMap(([name, entry]) => entry.examples.map((example) => `- ${name}: \`${example.replaceAll('`', "'")}\``));
const nginxSaid = [...tallies].flatMap(([name, entry]) => [...entry.upstreamErrors].map(([message, count]) => `- ${name}, ${count}×: \`${message}\``));
const report = [
  `# Rolling restart under steady traffic (${new Date().toISOString().slice(0, 10)})`,
  '',
  `\`npm run bench:rolling\`: ${rounds} rounds, ${loops} clients each alternating \`GET /api/projects/?limit=5\` and \`POST /api/projects/\`, on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), load average ${os.loadavg()[0]!.toFixed(1)} at the end. Each restart: SIGTERM, exit, start, ready, and (behind nginx) until nginx sends it traffic again.`,
  '',
  '| variant | restarts | requests | failed | failed share | retried by nginx | per restart | requests vs. committed config |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...rows,
  '',
  examples.length > 0 ? 'Failures seen (the first three of each variant):' : 'No request failed.',
  ...examples,
  '',
  "What nginx's error log said about the instances meanwhile (a refused connection is retried on the other instance):",
  ...nginxSaid,
  '',
].join('\n');
fs.writeFileSync(path.join(repoRoot, 'bench/results/rolling-restart.md'), report);
console.log(`\n${report}`);
