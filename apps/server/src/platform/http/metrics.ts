import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { databaseReadiness } from '../database/readiness';
import type { Metrics } from '../metrics';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

/** From a cached conditional GET (a few ms) to a large export (many seconds). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The request and database metrics every instance has: request durations by route pattern (never
 * the raw URL: ids would make a series per row) and status, requests in flight, and the database's
 * pools and, embedded, its maintenance rounds.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, options: { metrics: Metrics; inFlight: () => number }) => {
    const { metrics } = options;
    app.decorate('metrics', metrics);

    const durations = metrics.histogram({
      name: 'siteboard_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: DURATION_BUCKETS,
    });
    app.addHook('onResponse', async (request, reply) => {
      // Paths no route matched (the web app's pages, unknown API paths) share one label.
      durations.observe({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: reply.statusCode }, reply.elapsedTime / 1000);
    });
    metrics.observe({ type: 'gauge', name: 'siteboard_http_requests_in_flight', help: 'HTTP requests received and not yet answered.', read: options.inFlight });

    const pools = () => app.database.stats().pools;
    metrics.observe({
      type: 'gauge',
      name: 'siteboard_database_pool_connections_in_use',
      help: 'Database connections running a query or transaction, by pool (main: requests; live: live pushes).',
      labelNames: ['pool'],
      read: () => pools().map((pool) => ({ labels: { pool: pool.pool }, value: pool.open - pool.idle })),
    });
    metrics.observe({
      type: 'gauge',
      name: 'siteboard_database_pool_connections_open',
      help: 'Database connections open, by pool.',
      labelNames: ['pool'],
      read: () => pools().map((pool) => ({ labels: { pool: pool.pool }, value: pool.open })),
    });
    metrics.observe({
      type: 'gauge',
      name: 'siteboard_database_pool_waiting',
      help: 'Queries waiting for a free database connection, by pool.',
      labelNames: ['pool'],
      read: () => pools().map((pool) => ({ labels: { pool: pool.pool }, value: pool.waiting })),
    });

    // Whether the database answers (and is fully migrated) and this instance hears the change feed,
    // as /api/ready/ says: 0 the moment the database is away, where the metrics read from it go blank.
    metrics.observe({
      type: 'gauge',
      name: 'siteboard_database_up',
      help: 'Whether this instance has its database, by check: answers (database), has every migration (migrations), its change feed is heard (changes): 1 yes, 0 no.',
      labelNames: ['check'],
      read: async () => {
        const readiness = await databaseReadiness(app.database);
        return [
          { labels: { check: 'database' }, value: readiness.database === 'ok' ? 1 : 0 },
          { labels: { check: 'migrations' }, value: readiness.migrations === 'applied' ? 1 : 0 },
          { labels: { check: 'changes' }, value: readiness.changes === 'listening' ? 1 : 0 },
        ];
      },
    });

    if (app.database.kind === 'pglite') {
      const maintenance = () => app.database.stats().maintenance ?? { rounds: 0, looked: 0, statements: 0, seconds: 0, failures: 0 };
      metrics.observe({ type: 'counter', name: 'siteboard_embedded_maintenance_runs_total', help: 'Embedded database maintenance rounds that vacuumed or analyzed a table.', read: () => maintenance().rounds });
      metrics.observe({ type: 'counter', name: 'siteboard_embedded_maintenance_statements_total', help: 'VACUUM and ANALYZE statements the embedded maintenance ran.', read: () => maintenance().statements });
      metrics.observe({ type: 'counter', name: 'siteboard_embedded_maintenance_seconds_total', help: 'Time the embedded maintenance rounds took (requests wait meanwhile).', read: () => maintenance().seconds });
      metrics.observe({ type: 'counter', name: 'siteboard_embedded_maintenance_failures_total', help: 'Embedded maintenance rounds that failed.', read: () => maintenance().failures });
    }
  },
  { name: 'metrics', dependencies: ['db'] },
);
