import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const teamMembersRoutes: FastifyPluginAsyncZod = async () => {};
