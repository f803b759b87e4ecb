import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { databaseReadiness } from '../../platform';

const readinessSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  database: z.enum(['ok', 'unreachable']),
  migrations: z.enum(['applied', 'pending', 'unknown']),
  changes: z.enum(['listening', 'disconnected']),
  draining: z.boolean(),
});

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  // Liveness without the database: a probe that restarts the process should not fire on a
  // database outage, and the benchmarks use it as the server's ceiling.
  app.get('/api/health/live/', {
    schema: { tags: ['health'], summary: 'Liveness of the process alone', response: { 200: z.object({ status: z.literal('ok') }) } },
    handler: async () => ({ status: 'ok' as const }),
  });

  // Whether to send this instance work: a proxy or orchestrator stops when it answers 503, and it
  // does from the moment a drain begins (SIGTERM), before the instance stops accepting.
  app.get('/api/ready/', {
    schema: {
      tags: ['health'],
      summary: 'Readiness: the database answers, is fully migrated, the change feed is heard, and no drain has begun',
      response: { 200: readinessSchema, 503: readinessSchema },
    },
    handler: async (_request, reply) => {
      const checks = await databaseReadiness(app.database);
      const ready = checks.database === 'ok' && checks.migrations === 'applied' && checks.changes === 'listening' && !app.draining;
      reply.header('cache-control', 'no-store');
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', ...checks, draining: app.draining });
    },
  });

  app.get('/api/health/', {
    schema: {
      tags: ['health'],
      summary: 'Readiness: the process and its database',
      response: { 200: z.object({ status: z.literal('ok'), database: z.literal('ok') }), 503: z.object({ status: z.literal('error'), database: z.literal('unreachable') }) },
    },
    handler: async (request, reply) => {
      try {
        await app.db.execute(sql`select 1`);
        return { status: 'ok' as const, database: 'ok' as const };
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unreachable');
        return reply.code(503).send({ status: 'error' as const, database: 'unreachable' as const });
      }
    },
  });
};
