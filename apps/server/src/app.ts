import Fastify, { type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from './db/client';
import { authProtectedRoutes, authPublicRoutes } from './features/auth/auth.routes';
import { companiesRoutes } from './features/companies/companies.routes';
import { companySettingsRoutes } from './features/companies/company-settings.routes';
import { healthRoutes } from './features/health/health.routes';
import { projectsRoutes } from './features/projects/projects.routes';
import { reportsRoutes } from './features/reports/reports.routes';
import { tasksRoutes } from './features/tasks/tasks.routes';
import { teamMembersRoutes } from './features/team-members/team-members.routes';
import { usersRoutes } from './features/users/users.routes';
import { authPlugin } from './plugins/auth';
import { dbPlugin } from './plugins/db';
import { errorsPlugin } from './plugins/errors';
import { openapiPlugin } from './plugins/openapi';
import { webPlugin } from './plugins/web';

export interface AppOptions {
  database: Database;
  jwtSecret: string;
  allowSignup?: boolean;
  trustProxy?: boolean;
  /** The built web app to serve; apps/web/dist when unset. */
  webDistDir?: string;
  logger?: FastifyServerOptions['logger'];
}

export async function buildApp(options: AppOptions) {
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: options.trustProxy ?? false,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(errorsPlugin);
  await app.register(dbPlugin, { database: options.database });
  await app.register(authPlugin, { jwtSecret: options.jwtSecret });
  await app.register(openapiPlugin);

  await app.register(async (publicScope) => {
    await publicScope.register(healthRoutes);
    await publicScope.register(companiesRoutes, { allowSignup: options.allowSignup ?? true });
    await publicScope.register(authPublicRoutes);
  });

  await app.register(async (protectedScope) => {
    protectedScope.addHook('onRequest', protectedScope.authenticate);
    await protectedScope.register(authProtectedRoutes);
    await protectedScope.register(companySettingsRoutes);
    await protectedScope.register(usersRoutes);
    await protectedScope.register(teamMembersRoutes);
    await protectedScope.register(projectsRoutes);
    await protectedScope.register(tasksRoutes);
    await protectedScope.register(reportsRoutes);
  });

  await app.register(webPlugin, { webDistDir: options.webDistDir });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
