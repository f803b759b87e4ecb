import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';

interface KnownRoute {
  method: string;
  pattern: RegExp;
}

/**
 * A route's URL as a pattern of concrete paths: `:name` is one segment or the part of it before
 * a literal (`:token.ics`); the router ignores a trailing slash, so the pattern does too.
 */
export function routePattern(url: string): RegExp {
  const escaped = url.replace(/\/$/, '').replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/:\w+/g, '[^/]+?')}/?$`);
}

/**
 * Which methods a path has routes for (RFC 9110 §15.5.6): a method the path does not take is a
 * 405 with `Allow`, not a 404 as if the path did not exist. The routes are heard as they are
 * added; the web app's catch-all (`*`) is no route of a path.
 */
export const allowedMethodsPlugin = fp(
  async (app: FastifyInstance) => {
    const routes: KnownRoute[] = [];
    app.addHook('onRoute', (route: RouteOptions) => {
      if (route.url.includes('*')) return;
      const pattern = routePattern(route.url);
      for (const method of [route.method].flat()) routes.push({ method, pattern });
    });
    app.decorate('allowedMethods', (path: string) => [...new Set(routes.filter((route) => route.pattern.test(path)).map((route) => route.method))].sort());
  },
  { name: 'allowed-methods' },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** The methods some route takes at this path (without the query), sorted; none for an unknown path. */
    allowedMethods(path: string): string[];
  }
}
