import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DATABASE_CHECK_MS, withinTime } from './database/timeouts';

/** One value of a metric read at scrape time, for one set of labels (a queue's depth, by queue). */
export interface MetricSample {
  labels: Record<string, string | number>;
  value: number;
}

export interface ObservedMetric {
  /** A gauge goes up and down (a queue's depth); a counter only grows (maintenance rounds since start). */
  type: 'gauge' | 'counter';
  name: string;
  help: string;
  labelNames?: readonly string[];
  /** Read at each scrape: one value, or one per label set (label sets no longer answered disappear). */
  read: () => number | MetricSample[] | Promise<number | MetricSample[]>;
}

/**
 * The app's metrics (one registry per app: tests build several apps in one process). Machinery
 * and features add theirs in a few lines: a counter or histogram they update themselves, or a
 * metric read when Prometheus scrapes (`observe`), e.g. a job queue's depth and oldest job's age:
 *
 *   app.metrics.observe({ type: 'gauge', name: 'siteboard_jobs_waiting', help: 'Jobs waiting to run, by queue.',
 *     labelNames: ['queue'], read: async () => (await waitingJobs(app.db)).map((row) => ({ labels: { queue: row.queue }, value: row.count })) });
 */
export interface Metrics {
  counter<Label extends string = never>(options: { name: string; help: string; labelNames?: readonly Label[] }): Counter<Label>;
  histogram<Label extends string = never>(options: { name: string; help: string; labelNames?: readonly Label[]; buckets: number[] }): Histogram<Label>;
  observe(metric: ObservedMetric): void;
  /** What Prometheus reads, in its text format. */
  text(): Promise<string>;
  readonly contentType: string;
  /** Process memory, CPU, event-loop lag and garbage collection too: only in a process that serves its metrics. */
  collectProcessMetrics(): void;
}

export function createMetrics(log: FastifyBaseLogger): Metrics {
  const registry = new Registry();
  let processMetrics = false;
  return {
    counter: (options) => new Counter({ ...options, labelNames: options.labelNames ?? [], registers: [registry] }),
    histogram: (options) => new Histogram({ ...options, labelNames: options.labelNames ?? [], registers: [registry] }),
    observe(metric) {
      const { type, read, ...options } = metric;
      const labelNames = options.labelNames ?? [];
      async function collect(this: Gauge | Counter) {
        let value: number | MetricSample[];
        try {
          // A database gone quiet must not hold the scrape (Prometheus would see the target down).
          value = await withinTime(Promise.resolve(read()), DATABASE_CHECK_MS);
        } catch (error) {
          // One metric that cannot be read (its source is down) does not fail the scrape. It reads as
          // unknown, not zero: a gauge says NaN (or loses its series), a counter keeps its last value.
          log.warn({ err: error, metric: metric.name }, 'a metric could not be read');
          if (this instanceof Gauge) {
            this.reset();
            if (labelNames.length === 0) this.set(Number.NaN);
          }
          return;
        }
        this.reset();
        const samples = typeof value === 'number' ? [{ labels: {}, value }] : value;
        for (const sample of samples) {
          if (this instanceof Gauge) this.set(sample.labels, sample.value);
          else this.inc(sample.labels, sample.value);
        }
      }
      if (type === 'gauge') new Gauge({ ...options, labelNames, registers: [registry], collect });
      else new Counter({ ...options, labelNames, registers: [registry], collect });
    },
    text: () => registry.metrics(),
    contentType: registry.contentType,
    collectProcessMetrics() {
      if (processMetrics) return;
      processMetrics = true;
      collectDefaultMetrics({ register: registry });
    },
  };
}

/**
 * Serves `GET /metrics` on a port of its own (METRICS_PORT), never on the public one: what the
 * server is doing is for the operator's Prometheus, not for the internet.
 */
export async function serveMetrics(metrics: Metrics, options: { port: number; host: string; log: FastifyBaseLogger }) {
  metrics.collectProcessMetrics();
  const server = http.createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: metrics are at /metrics\n');
      return;
    }
    metrics.text().then(
      (text) => response.writeHead(200, { 'content-type': metrics.contentType }).end(text),
      (error: Error) => {
        options.log.error({ err: error }, 'metrics could not be written');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A scraper keeps its connection open between scrapes.
        server.closeAllConnections();
      }),
  };
}
