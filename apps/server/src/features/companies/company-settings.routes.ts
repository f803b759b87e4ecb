import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const companySettingsRoutes: FastifyPluginAsyncZod = async () => {};
