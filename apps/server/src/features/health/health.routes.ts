import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  // Liveness without the database: a probe that restarts the process should not fire on a
  // database outage, and the benchmarks use it as the server's ceiling.
  app.get('/api/health/live/', {
    schema: { tags: ['health'], summary: 'Liveness of the process alone', response: { 200: z.object({ status: z.literal('ok') }) } },
    handler: async () => ({ status: 'ok' as const }),
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
