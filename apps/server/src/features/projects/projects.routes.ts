import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const projectsRoutes: FastifyPluginAsyncZod = async () => {};
